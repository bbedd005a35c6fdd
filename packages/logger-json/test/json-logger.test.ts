import { describe, expect, it } from 'vitest';
import { createJsonLogger } from '../src';

describe('createJsonLogger', () => {
  it('writes one JSON line per call at or above its level, with the fields', () => {
    const lines: string[] = [];
    const logger = createJsonLogger('info', (line) => lines.push(line));
    logger.debug('hidden');
    logger.info('scan done', { userId: 'u1', ms: 12 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'info',
      message: 'scan done',
      userId: 'u1',
      ms: 12,
    });
  });

  it('writes an Error field with its name, message, stack and cause', () => {
    const lines: string[] = [];
    const logger = createJsonLogger('info', (line) => lines.push(line));
    const cause = new Error('socket hang up');
    logger.error('request failed', { error: new TypeError('store unreachable', { cause }) });
    const { error } = JSON.parse(lines[0]!) as { error: Record<string, unknown> };
    expect(error).toMatchObject({
      name: 'TypeError',
      message: 'store unreachable',
      stack: expect.stringContaining('TypeError: store unreachable'),
      cause: { name: 'Error', message: 'socket hang up' },
    });
  });
});
