import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries of the repository hold for what slipped past them before: a relative path
 * into core's use cases from the web app, web code reaching core outside its contract, the contract
 * importing a use case, core importing an adapter, an SDK client built in a handler, a `.js` file,
 * configuration read inside core, and an import cycle made only of type imports. Each ESLint fixture
 * is linted as if it were a file at that path.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('lint boundaries', { timeout: 60_000 }, () => {
  it("refuses a web import of core's use cases by relative path", async () => {
    const ids = await ruleIds(
      'web/src/features/receipts/fixture.ts',
      "import { uploadReceipt } from '../../../../packages/core/src/use-cases/upload-receipt';\nexport const x = uploadReceipt;\n",
    );
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it("lets the web import core's route table", async () => {
    const ids = await ruleIds(
      'web/src/features/receipts/fixture.ts',
      "import { ROUTES } from '@receipts/core/contract/routes';\nimport type { RouteAnswers } from '@receipts/core/contract/answers';\nexport const x: Partial<RouteAnswers> = {};\nexport const y = ROUTES;\n",
    );
    expect(ids).toEqual([]);
  });

  it('refuses a web import of core outside the contract, by package subpath too', async () => {
    const ids = await ruleIds(
      'web/src/features/receipts/fixture.ts',
      "import { totalChecksOut } from '@receipts/core/analysis';\nexport const x = totalChecksOut;\n",
    );
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it("refuses a value import of the contract's zod schemas in the web app", async () => {
    const ids = await ruleIds(
      'web/src/lib/fixture.ts',
      "import { uploadBody } from '@receipts/core/contract/requests';\nexport const x = uploadBody;\n",
    );
    expect(ids).toContain('@typescript-eslint/no-restricted-imports');
  });

  it('refuses a use case or the repository imported by the contract', async () => {
    const ids = await ruleIds(
      'packages/core/src/contract/fixture.ts',
      "import type { ReceiptRepository } from '../repository/receipt-repository';\nexport type X = ReceiptRepository;\n",
    );
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it('refuses an adapter imported by core', async () => {
    const ids = await ruleIds(
      'packages/core/src/use-cases/fixture.ts',
      "import { MemoryScanQueue } from '@receipts/queue-memory';\nexport const x = MemoryScanQueue;\n",
    );
    expect(ids).toContain('import-x/no-restricted-paths');
    expect(ids).toContain('no-restricted-imports');
  });

  it('refuses an SDK client constructed in a handler', async () => {
    const ids = await ruleIds(
      'lambdas/src/handlers/fixture.ts',
      "import { S3Client } from '@aws-sdk/client-s3';\nexport const client = new S3Client({});\n",
    );
    expect(ids).toContain('no-restricted-imports');
  });

  it('holds the boundaries for .js files too', async () => {
    const ids = await ruleIds(
      'packages/core/src/fixture.js',
      "import { AzureTableStore } from '../../store-azure/src/index.ts';\nexport const x = AzureTableStore;\n",
    );
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it('refuses a logger writing to the terminal in core (a Logger adapter does that)', async () => {
    const ids = await ruleIds(
      'packages/core/src/fixture.ts',
      "export const log = (line: string) => process.stderr.write(line + '\\n');\n",
    );
    expect(ids).toContain('no-restricted-properties');
  });

  it('refuses process.env in core', async () => {
    const ids = await ruleIds(
      'packages/core/src/fixture.ts',
      'export const level = process.env.LOG_LEVEL;\n',
    );
    expect(ids).toContain('no-restricted-properties');
  });

  it('refuses an import cycle made only of type imports (npm run lint)', () => {
    const root = mkdtempSync(join(tmpdir(), 'lint-cycle-'));
    const files: Record<string, string> = {
      'packages/core/package.json': JSON.stringify({
        name: '@receipts/core',
        exports: { './contract/*': './src/contract/*.ts' },
      }),
      'packages/core/src/contract/answers.ts':
        "import type { ReportPage } from './reports';\nexport type Answers = { report: ReportPage };\n",
      'packages/core/src/contract/reports.ts':
        "import type { Answers } from '@receipts/core/contract/answers';\nexport type ReportPage = { next?: Answers };\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const tsx = join(process.cwd(), 'node_modules/.bin/tsx');
    const run = spawnSync(tsx, [join(process.cwd(), 'tools/src/cli/check-cycles.ts')], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('packages/core/src/contract/answers.ts');
    expect(run.stderr).toContain('packages/core/src/contract/reports.ts');
  });
});
