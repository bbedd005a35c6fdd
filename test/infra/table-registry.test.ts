import {
  BatchWriteItemCommand,
  DynamoDBClient,
  type BatchWriteItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import type { CfnElement } from 'aws-cdk-lib';
import { REQUIRED_TABLES } from '@receipts/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynalite, type RunningDynalite } from '../../dev/src/dynalite';
import { createStoreTable } from '../../packages/store-dynamo/src/create-store-table';
import { DynamoTableStore } from '../../packages/store-dynamo/src/dynamo-table-store';
import { removeTempFolders, synthApp, type SynthesisedApp } from './synth-app';

interface SdkCall {
  service: string;
  action: string;
  parameters: BatchWriteItemCommandInput;
}

/** The custom resource's call as CloudFormation would hand it over, with the table's name filled in. */
function registrationCall(synth: SynthesisedApp, when: 'Create' | 'Update', tableName: string): SdkCall {
  const registry = synth.storage.tableRegistry!;
  const resource = Object.values(synth.templates.storage.findResources('Custom::TableRegistry'))[0]!;
  const tableRef = synth.storage.getLogicalId(synth.storage.table!.node.defaultChild as CfnElement);
  const join = (resource.Properties as Record<string, { 'Fn::Join': [string, unknown[]] }>)[when]![
    'Fn::Join'
  ];
  const text = join[1]
    .map((part) => {
      if (typeof part === 'string') return part;
      if ((part as { Ref?: string }).Ref === tableRef) return tableName;
      throw new Error(`Unexpected part of the call: ${JSON.stringify(part)}`);
    })
    .join(join[0]);
  expect(registry.node.path).toBe('ReceiptsStorage/TableRegistry');
  return JSON.parse(text) as SdkCall;
}

describe('table registry of a new DynamoDB deployment (against dynalite)', () => {
  let synth: SynthesisedApp;
  let dynalite: RunningDynalite;
  let client: DynamoDBClient;
  const tableName = 'receipts-deployed';

  beforeAll(async () => {
    synth = synthApp();
    dynalite = await startDynalite();
    client = new DynamoDBClient({
      endpoint: dynalite.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await createStoreTable(client, tableName);
  });

  afterAll(async () => {
    client?.destroy();
    await dynalite?.stop();
    removeTempFolders();
  });

  it('is written by a custom resource on create and on update, allowed only BatchWriteItem on the table', () => {
    for (const when of ['Create', 'Update'] as const) {
      const call = registrationCall(synth, when, tableName);
      expect(call.service).toBe('DynamoDB');
      expect(call.action).toBe('batchWriteItem');
    }
    const policies = Object.values(synth.templates.storage.findResources('AWS::IAM::Policy')).map((p) =>
      JSON.stringify(p.Properties),
    );
    const registryPolicy = policies.find((p) => p.includes('dynamodb:BatchWriteItem'))!;
    expect(registryPolicy).toContain('"Action":"dynamodb:BatchWriteItem"');
    expect(registryPolicy).not.toContain('"Resource":"*"');
  });

  it('makes every table the app needs exist for the DynamoDB adapter, so the first writes succeed', async () => {
    const store = new DynamoTableStore({ client, tableName });
    await expect(store.createEntity('Users', { partitionKey: 'u1', rowKey: 'u1' })).rejects.toThrow(
      /does not exist/,
    );

    const call = registrationCall(synth, 'Create', tableName);
    const answer = await client.send(new BatchWriteItemCommand(call.parameters));
    expect(answer.UnprocessedItems ?? {}).toEqual({});

    const fresh = new DynamoTableStore({ client, tableName });
    expect(await fresh.listTables()).toEqual([...REQUIRED_TABLES].sort());
    await fresh.createEntity('Users', { partitionKey: 'u1', rowKey: 'u1', user_email: 'a@example.com' });
    expect(await fresh.getEntity('Users', 'u1', 'u1')).toMatchObject({ user_email: 'a@example.com' });
  });

  it('leaves the data alone when it runs again (a redeploy)', async () => {
    const call = registrationCall(synth, 'Update', tableName);
    await client.send(new BatchWriteItemCommand(call.parameters));
    const store = new DynamoTableStore({ client, tableName });
    expect(await store.listTables()).toEqual([...REQUIRED_TABLES].sort());
    expect(await store.getEntity('Users', 'u1', 'u1')).toMatchObject({ user_email: 'a@example.com' });
  });
});
