import type { CfnElement } from 'aws-cdk-lib';
import { ROUTES, type RouteName } from '@receipts/core/contract/routes';
import { TABLES, TEST_PARTITION, REQUIRED_TABLES } from '@receipts/core';
import { ACCESS_LEVELS, type TableAccessLevel, type TablePermissions } from '@receipts/store-azure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actionsOf,
  propertiesOf,
  removeTempFolders,
  statementsAllowing,
  synthApp,
  type SynthesisedApp,
} from './synth-app';

const AZURE_SECRET = 'receipts/azure-tables';
const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];

describe('Azure Tables instead of DynamoDB', () => {
  let synth: SynthesisedApp;
  beforeAll(() => {
    synth = synthApp({ context: { storageBackend: 'azure', azureTablesSecretName: AZURE_SECRET } });
  });
  afterAll(removeTempFolders);

  const functions = () => [
    ...ROUTE_NAMES.map((name) => ({
      name: name as string,
      fn: synth.api.functions[name],
      template: synth.templates.api,
    })),
    { name: 'analyze', fn: synth.pipeline.analyzeFunction, template: synth.templates.pipeline },
    { name: 'sweep', fn: synth.pipeline.sweepFunction, template: synth.templates.pipeline },
    { name: 'deadLetter', fn: synth.pipeline.deadLetterFunction, template: synth.templates.pipeline },
  ];
  const environmentOf = ({ fn, template }: ReturnType<typeof functions>[number]) =>
    (
      propertiesOf(template, fn.function.node.defaultChild as CfnElement) as {
        Environment: { Variables: Record<string, unknown> };
      }
    ).Environment.Variables;

  /** Each function's access level: the table this deployment is checked against. */
  const EXPECTED_LEVEL: Record<RouteName | 'analyze' | 'sweep' | 'deadLetter', TableAccessLevel | null> = {
    login: 'readWrite',
    registerFCMToken: 'readWrite',
    unregisterFCMToken: 'readWrite',
    listQueue: 'read',
    getImage: 'read',
    getAppData: 'settle',
    report: 'settle',
    exportCsv: 'settle',
    receiptDetail: 'settle',
    merchantDetail: 'settle',
    itemDetail: 'settle',
    listMerchants: 'settle',
    dashboard: 'settle',
    deleteReceiptData: 'readWrite',
    log: null,
    upload: 'readWrite',
    retryScan: 'readWrite',
    removeScan: 'readWrite',
    updateReceipt: 'readWrite',
    saveItem: 'readWrite',
    saveReceipt: 'readWrite',
    listCorrectionRules: 'read',
    deleteCorrectionRule: 'readWrite',
    deleteItem: 'readWrite',
    markReviewed: 'readWrite',
    keepBothReceipts: 'readWrite',
    moveReceipt: 'readWrite',
    updateMerchant: 'readWrite',
    mergeMerchants: 'readWrite',
    reanalyseReceipt: 'readWrite',
    listBrands: null,
    getAnalysis: null,
    storageListTables: 'storageTester',
    storageListRecords: 'storageTester',
    storageCreateRecord: 'storageTester',
    storageDeleteRecord: 'storageTester',
    downloadMyData: 'read',
    deleteAccount: 'readWrite',
    analyze: 'readWrite',
    sweep: 'queueKeeper',
    deadLetter: 'queueKeeper',
  };

  /** What each level's signatures allow, as Azure's `sp` letters (r query, a add, u update, d delete). */
  const sp = (p: TablePermissions) =>
    `${p.query ? 'r' : ''}${p.add ? 'a' : ''}${p.update ? 'u' : ''}${p.delete ? 'd' : ''}` +
    (p.partitionKey === undefined ? '' : ` in ${p.partitionKey}`);
  const every = (value: string) => Object.fromEntries(REQUIRED_TABLES.map((table) => [table, value]));
  const EXPECTED_PERMISSIONS: Record<
    TableAccessLevel,
    { tables: Record<string, string>; listTables: boolean }
  > = {
    read: { tables: every('r'), listTables: false },
    // Reads, and writes what the settle step writes: never a receipt, a brand or a corporation.
    settle: {
      tables: {
        ...every('r'),
        ...Object.fromEntries(
          [
            TABLES.users,
            TABLES.totals,
            TABLES.totalsApplied,
            TABLES.scanQueue,
            TABLES.items,
            TABLES.taxes,
            TABLES.merchants,
          ].map((table) => [table, 'raud']),
        ),
      },
      listTables: false,
    },
    readWrite: { tables: every('raud'), listTables: false },
    queueKeeper: { tables: { [TABLES.scanQueue]: 'rau' }, listTables: false },
    storageTester: { tables: every(`rad in ${TEST_PARTITION}`), listTables: true },
  };

  it('gives each access level the table permissions of the table above, and no other table', () => {
    for (const [level, expected] of Object.entries(EXPECTED_PERMISSIONS)) {
      const { tables, listTables } = ACCESS_LEVELS[level as TableAccessLevel];
      expect(
        { tables: Object.fromEntries(Object.entries(tables).map(([t, p]) => [t, sp(p)])), listTables },
        level,
      ).toEqual(expected);
    }
  });

  it('creates no DynamoDB table and grants no DynamoDB action', () => {
    for (const template of Object.values(synth.templates)) {
      template.resourceCountIs('AWS::DynamoDB::Table', 0);
      expect(JSON.stringify(template.toJSON())).not.toContain('dynamodb:');
    }
    expect(synth.storage.table).toBeUndefined();
    // Azure tables are created with `npm run tables:setup`, not by the stack.
    synth.templates.storage.resourceCountIs('Custom::TableRegistry', 0);
    // The images bucket stays on S3.
    synth.templates.storage.resourceCountIs('AWS::S3::Bucket', 1);
  });

  it("gives each function its level's secret of table signatures and lets it read that one only", () => {
    for (const entry of functions()) {
      const { name, fn, template } = entry;
      const env = environmentOf(entry);
      const level = EXPECTED_LEVEL[name as keyof typeof EXPECTED_LEVEL];
      expect(env.STORAGE_BACKEND, name).toBe('azure');
      expect(env, name).not.toHaveProperty('DYNAMODB_TABLE');
      const reads = statementsAllowing(template, fn.role, 'secretsmanager:GetSecretValue').map((s) =>
        JSON.stringify(s.Resource),
      );
      const azureReads = reads.filter((r) => r.includes(`secret:${AZURE_SECRET}`));
      if (level === null) {
        expect(env, name).not.toHaveProperty('AZURE_TABLES_SECRET_ARN');
        expect(azureReads, name).toEqual([]);
      } else {
        expect(JSON.stringify(env.AZURE_TABLES_SECRET_ARN), name).toContain(
          `secret:${AZURE_SECRET}/${level}`,
        );
        expect(azureReads, name).toEqual([expect.stringContaining(`secret:${AZURE_SECRET}/${level}-??????`)]);
      }
    }
    // /api/log touches no data: it may write its logs and nothing else.
    expect(new Set(actionsOf(synth.templates.api, synth.api.functions.log.role))).toEqual(
      new Set(['logs:CreateLogStream', 'logs:PutLogEvents']),
    );
  });

  it('puts the origin-verify value only in the API functions, which check it', () => {
    for (const entry of functions()) {
      const api = ROUTE_NAMES.includes(entry.name as RouteName);
      expect(Object.hasOwn(environmentOf(entry), 'ORIGIN_VERIFY_SECRET'), entry.name).toBe(api);
    }
  });
});
