import { describe, expect, it } from 'vitest';
import { ConfigurationError, silentLogger } from '@receipts/core';
import { createServices } from '../src/composition';
import { loadConfig } from '../src/config';

describe('loadConfig', () => {
  it('has the local defaults', () => {
    const config = loadConfig({ AZURE_TABLES_CONNECTION_STRING: 'UseDevelopmentStorage=true' });
    expect(config).toMatchObject({
      STORAGE_BACKEND: 'azure',
      BLOB_STORE: 'local',
      BLOB_DIR: '.data/blobs',
      ANALYZER: 'ocr',
      SCAN_QUEUE: 'memory',
      NOTIFIER: 'log',
      FIREBASE_PROJECT_ID: 'demo-receipts',
      MAX_SCAN_ATTEMPTS: 3,
      PORT: 8080,
      ADMIN_EMAILS: [],
      inCloud: false,
    });
  });

  it('refuses to run a deployed function with the Auth emulator host set', () => {
    expect(() =>
      loadConfig({
        STORAGE_BACKEND: 'dynamodb',
        AWS_LAMBDA_FUNCTION_NAME: 'api-upload',
        FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
      }),
    ).toThrow(/FIREBASE_AUTH_EMULATOR_HOST/);
  });

  it('refuses the Auth emulator in any cloud runtime, not only Lambda', () => {
    for (const marker of [
      { AWS_EXECUTION_ENV: 'AWS_ECS_FARGATE' },
      { ECS_CONTAINER_METADATA_URI_V4: 'http://169.254.170.2/v4/abc' },
      { K_SERVICE: 'receipts-api' },
      { WEBSITE_INSTANCE_ID: 'abc123' },
      { FUNCTIONS_WORKER_RUNTIME: 'node' },
    ]) {
      const env = { STORAGE_BACKEND: 'dynamodb', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099', ...marker };
      expect(() => loadConfig(env)).toThrow(/FIREBASE_AUTH_EMULATOR_HOST is set while running in/);
      expect(loadConfig({ ...env, FIREBASE_AUTH_EMULATOR_HOST: '' }).inCloud).toBe(true);
    }
    expect(
      loadConfig({ STORAGE_BACKEND: 'dynamodb', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }).inCloud,
    ).toBe(false);
  });

  it('names the Azure Tables setting when the store is first used, not at start (the log route has none)', async () => {
    const services = await createServices(loadConfig({}), {
      queue: { enqueue: () => Promise.resolve() },
      logger: silentLogger,
    });
    await expect(services.store.listTables()).rejects.toThrow(/AZURE_TABLES_CONNECTION_STRING/);
  });

  it('names the missing or wrong setting', () => {
    expect(() => loadConfig({ STORAGE_BACKEND: 'dynamodb', BLOB_STORE: 's3' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ STORAGE_BACKEND: 'dynamodb', SCAN_QUEUE: 'sqs' })).toThrow(/SCAN_QUEUE_URL/);
    expect(() => loadConfig({ STORAGE_BACKEND: 'dynamodb', MAX_SCAN_ATTEMPTS: 'two' })).toThrow(
      /MAX_SCAN_ATTEMPTS must be a whole number/,
    );
    expect(() => loadConfig({ STORAGE_BACKEND: 'cosmos' })).toThrow(ConfigurationError);
  });

  it('reads the admin list case-insensitively', () => {
    const config = loadConfig({
      STORAGE_BACKEND: 'dynamodb',
      ADMIN_EMAILS: ' Ann@Example.com, bob@example.com ,',
    });
    expect(config.ADMIN_EMAILS).toEqual(['ann@example.com', 'bob@example.com']);
  });
});
