import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries of the repository hold for what slipped past them before: a relative path
 * into core's use cases from the web app, an SDK client built in a handler, a `.js` file, and
 * configuration read inside core. Each fixture is linted as if it were a file at that path.
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
      "import { apiRoutes } from '@receipts/core/api-routes';\nexport const x = apiRoutes;\n",
    );
    expect(ids).not.toContain('import-x/no-restricted-paths');
    expect(ids).not.toContain('no-restricted-imports');
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

  it('refuses process.env in core', async () => {
    const ids = await ruleIds(
      'packages/core/src/fixture.ts',
      'export const level = process.env.LOG_LEVEL;\n',
    );
    expect(ids).toContain('no-restricted-properties');
  });
});
