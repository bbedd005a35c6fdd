import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, silentLogger } from '@receipts/core';
import { AzureTableStore } from '@receipts/store-azure';
import { startAzurite, type RunningAzurite } from '../../dev/src/azurite';
import { describeTableStoreConformance } from './conformance';

let azurite: RunningAzurite;
let location: string;

beforeAll(async () => {
  location = await mkdtemp(join(tmpdir(), 'azurite-store-'));
  azurite = await startAzurite({ location, silent: true });
});

afterAll(async () => {
  await azurite?.stop();
  await rm(location, { recursive: true, force: true });
});

describeTableStoreConformance('AzureTableStore on Azurite', (logger) =>
  AzureTableStore.fromConnectionString(azurite.connectionString, { logger }),
);

describe('AzureTableStore connection strings', () => {
  const key = 'a2V5';
  const cases: [string, string, RegExp][] = [
    [
      'an endpoint that is not a URL',
      `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${key};TableEndpoint=not a url`,
      /Invalid TableEndpoint .*not a URL/,
    ],
    [
      'an ftp endpoint',
      `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${key};TableEndpoint=ftp://example.com/acct`,
      /Invalid TableEndpoint .*neither http nor https/,
    ],
    [
      'an ftp protocol',
      `DefaultEndpointsProtocol=ftp;AccountName=acct;AccountKey=${key};EndpointSuffix=core.windows.net`,
      /Invalid DefaultEndpointsProtocol .*http or https/,
    ],
    [
      'an account without the endpoint or its suffix',
      `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${key}`,
      /Invalid EndpointSuffix .*core\.windows\.net/,
    ],
    [
      'a key without its account',
      `DefaultEndpointsProtocol=https;AccountKey=${key};TableEndpoint=https://x.table.core.windows.net`,
      /Invalid AccountName/,
    ],
    [
      'an empty key',
      'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=;EndpointSuffix=core.windows.net',
      /Invalid AccountKey .*empty/,
    ],
    [
      'no credentials',
      'TableEndpoint=https://acct.table.core.windows.net',
      /Invalid SharedAccessSignature .*needs TableEndpoint and SharedAccessSignature/,
    ],
    ['a part without =', 'AccountName=acct;garbage', /malformed: give Name=value parts/],
    ['an empty string', '  ', /empty/],
    [
      'credentials over http to another machine',
      `DefaultEndpointsProtocol=http;AccountName=acct;AccountKey=${key};TableEndpoint=http://10.1.2.3:10002/acct`,
      /plain http/,
    ],
  ];
  for (const [what, connectionString, message] of cases) {
    it(`names the wrong part: ${what}`, () => {
      const attempt = () => AzureTableStore.fromConnectionString(connectionString, { logger: silentLogger });
      expect(attempt).toThrow(ConfigurationError);
      expect(attempt).toThrow(message);
    });
  }

  it('never repeats the account key or the signature in a message', () => {
    const secret = 'c2VjcmV0c2VjcmV0';
    const refused = [
      `DefaultEndpointsProtocol=https;AccountKey=${secret};EndpointSuffix=core.windows.net`,
      `TableEndpoint=http://10.1.2.3/acct;SharedAccessSignature=sv=2020-08-04&sig=${secret}`,
    ];
    for (const connectionString of refused) {
      const error = (() => {
        try {
          AzureTableStore.fromConnectionString(connectionString, { logger: silentLogger });
        } catch (caught) {
          return caught as Error;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error!.message).not.toContain(secret);
    }
  });

  it('accepts account-key, SAS and development-storage strings', () => {
    const accepted = [
      azurite.connectionString,
      'UseDevelopmentStorage=true',
      `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=a2V5;EndpointSuffix=core.windows.net`,
      'TableEndpoint=https://acct.table.core.windows.net/;SharedAccessSignature=sv=2020-08-04&ss=t&sig=abc%3D',
    ];
    const endpoints = accepted.map(
      (connectionString) =>
        AzureTableStore.fromConnectionString(connectionString, { logger: silentLogger }).endpoint,
    );
    expect(endpoints).toEqual([
      `http://127.0.0.1:${azurite.port}/devstoreaccount1`,
      'http://127.0.0.1:10002/devstoreaccount1',
      'https://acct.table.core.windows.net',
      // The signature stays out of the endpoint, which error messages quote.
      'https://acct.table.core.windows.net',
    ]);
  });

  it('says where it could not connect when nothing listens there', async () => {
    const store = AzureTableStore.fromConnectionString(
      azurite.connectionString.replace(`:${azurite.port}/`, ':1/'),
      { logger: silentLogger },
    );
    await expect(store.listTables()).rejects.toThrow(
      /Could not reach Azure Tables at http:\/\/127\.0\.0\.1:1/,
    );
  }, 60_000);
});

describe('Azurite launcher', () => {
  it('keeps the tables under its folder across a restart', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'azurite-restart-'));
    try {
      const first = await startAzurite({ location: folder, silent: true });
      const store = AzureTableStore.fromConnectionString(first.connectionString, { logger: silentLogger });
      await store.createTable('Survivors');
      await store.createEntity('Survivors', { partitionKey: 'p', rowKey: 'r', note: 'still here' });
      await first.stop();
      const second = await startAzurite({ location: folder, silent: true });
      try {
        const again = AzureTableStore.fromConnectionString(second.connectionString, { logger: silentLogger });
        expect((await again.getEntity('Survivors', 'p', 'r'))?.note).toBe('still here');
      } finally {
        await second.stop();
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
