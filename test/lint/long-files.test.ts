import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LONG_FILES } from '../../vitest.config';

/** The list of long files that `npm test` starts first names test files that still exist, once each. */
describe('the long files started first', () => {
  it('are test files of the repository, each named once', () => {
    expect(LONG_FILES.filter((file) => !existsSync(file) || !file.endsWith('.test.ts'))).toEqual([]);
    expect(new Set(LONG_FILES).size).toBe(LONG_FILES.length);
  });
});
