import type { CfnElement } from 'aws-cdk-lib';
import { ROUTES, type RouteName } from '@receipts/core/api';
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
  ];

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

  it('tells every function to use Azure Tables and where the connection string secret is', () => {
    for (const { name, fn, template } of functions()) {
      const env = (
        propertiesOf(template, fn.function.node.defaultChild as CfnElement) as {
          Environment: { Variables: Record<string, unknown> };
        }
      ).Environment.Variables;
      expect(env.STORAGE_BACKEND, name).toBe('azure');
      expect(JSON.stringify(env.AZURE_TABLES_SECRET_ARN), name).toContain(`secret:${AZURE_SECRET}`);
      expect(env, name).not.toHaveProperty('DYNAMODB_TABLE');
    }
  });

  it('lets every function read the connection string secret, and nothing else grows', () => {
    for (const { name, fn, template } of functions()) {
      const reads = statementsAllowing(template, fn.role, 'secretsmanager:GetSecretValue').map((s) =>
        JSON.stringify(s.Resource),
      );
      expect(
        reads.some((r) => r.includes(`secret:${AZURE_SECRET}-??????`)),
        name,
      ).toBe(true);
    }
    // log-event opens the store at start (the composition root reads the secret) but touches no data.
    const logActions = new Set(actionsOf(synth.templates.api, synth.api.functions.log.role));
    expect(logActions).toEqual(
      new Set([
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'secretsmanager:GetSecretValue',
        'secretsmanager:DescribeSecret',
      ]),
    );
  });
});
