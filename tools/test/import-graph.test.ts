import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, importsOf } from '../src/cycles/import-graph';

function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'import-graph-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

describe('import graph', () => {
  it('reads value, type-only, re-export and dynamic imports, not ones in comments', () => {
    const code = [
      "import { a } from './a';",
      "import type { B } from './b';",
      "export * from './c';",
      "export { d } from './d';",
      "const e = await import('./e');",
      "// import { f } from './f';",
    ].join('\n');
    expect(importsOf(code)).toEqual(['./a', './b', './c', './d', './e']);
  });

  it('finds a cycle made of type-only imports through a package export pattern', () => {
    const root = repo({
      'packages/core/package.json': JSON.stringify({
        name: '@receipts/core',
        exports: { './contract/*': './src/contract/*.ts' },
      }),
      'packages/core/src/contract/answers.ts':
        "import type { Page } from './reports';\nexport type A = Page;\n",
      'packages/core/src/contract/reports.ts':
        "import type { A } from '@receipts/core/contract/answers';\nexport type Page = { a?: A };\n",
      'packages/core/src/free.ts': "import type { Page } from './contract/reports';\nexport type F = Page;\n",
    });
    expect(cycles(importGraph(root, ['packages']))).toEqual([
      ['packages/core/src/contract/answers.ts', 'packages/core/src/contract/reports.ts'],
    ]);
  });

  it('finds none in a tree without cycles', () => {
    const root = repo({
      'packages/core/package.json': JSON.stringify({ name: '@receipts/core' }),
      'packages/core/src/a.ts': "import type { B } from './b';\nexport type A = B;\n",
      'packages/core/src/b.ts': 'export type B = string;\n',
    });
    expect(cycles(importGraph(root, ['packages']))).toEqual([]);
  });
});
