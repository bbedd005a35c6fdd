import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError } from '@receipts/core';
import { describe, expect, it } from 'vitest';
import { isDemoProject, readConfig, type ContextSource } from '../../infra/lib/config';
import { REPO_ROOT } from '../../infra/lib/receipt-function';
import { TEST_CONTEXT } from './synth-app';

const source = (context: Record<string, unknown>): ContextSource => ({
  tryGetContext: (key) => context[key],
});

function configError(context: Record<string, unknown>): ConfigurationError {
  try {
    readConfig(source(context));
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error('readConfig accepted the context');
}

describe('CDK context', () => {
  it('accepts the demo values of cdk.json, so `cdk synth` works on a fresh clone, and knows them for demo values', () => {
    const cdkJson = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
      app: string;
      context: Record<string, unknown>;
    };
    expect(cdkJson.app).toContain('infra/bin/app.ts');
    const config = readConfig(source(cdkJson.context));
    expect(config.storageBackend).toBe('dynamodb');
    expect(isDemoProject(config)).toBe(true);
  });

  it('fills in defaults for the optional settings', () => {
    const config = readConfig(source(TEST_CONTEXT));
    expect(config).toMatchObject({ storageBackend: 'dynamodb', logLevel: 'info', logRetentionDays: 30 });
    expect(config.alarmEmail).toBeUndefined();
    expect(isDemoProject(config)).toBe(false);
  });

  it('names every missing key and says where to set it', () => {
    const error = configError({ adminEmails: [] });
    expect(error.message).toContain('"firebaseProjectId"');
    expect(error.message).toContain('"firebaseWebConfig"');
    expect(error.message).toContain('"firebaseServiceAccountSecretName"');
    expect(error.message).not.toContain('"adminEmails"');
    expect(error.message).toContain('cdk.json');
    expect(error.message).toContain('-c <key>=<value>');
  });

  it('names a single missing key', () => {
    const { firebaseServiceAccountSecretName: _omitted, ...rest } = TEST_CONTEXT;
    const error = configError(rest);
    expect(error.message).toMatch(/^Missing CDK context "firebaseServiceAccountSecretName"/);
    expect(error.message).toContain('Secrets Manager');
  });

  it('reads values given as strings on the command line: JSON objects and comma-separated lists', () => {
    const config = readConfig(
      source({
        ...TEST_CONTEXT,
        firebaseWebConfig: JSON.stringify(TEST_CONTEXT.firebaseWebConfig),
        adminEmails: 'a@example.com, b@example.com',
        logRetentionDays: '90',
      }),
    );
    expect(config.firebaseWebConfig.authDomain).toBe('receipts-test-1234.firebaseapp.com');
    expect(config.adminEmails).toEqual(['a@example.com', 'b@example.com']);
    expect(config.logRetentionDays).toBe(90);
  });

  it('says so when the web config is not JSON', () => {
    const error = configError({ ...TEST_CONTEXT, firebaseWebConfig: '{apiKey: nope' });
    expect(error.message).toContain('"firebaseWebConfig" is not valid JSON');
  });

  it('names the fields of the web config that are missing', () => {
    const { appId: _appId, ...webConfig } = TEST_CONTEXT.firebaseWebConfig;
    const error = configError({ ...TEST_CONTEXT, firebaseWebConfig: webConfig });
    expect(error.message).toContain('"firebaseWebConfig.appId"');
  });

  it('refuses a web config of another Firebase project', () => {
    const error = configError({
      ...TEST_CONTEXT,
      firebaseWebConfig: { ...TEST_CONTEXT.firebaseWebConfig, projectId: 'another-project' },
    });
    expect(error.message).toContain('"firebaseWebConfig.projectId"');
    expect(error.message).toContain('another-project');
    expect(error.message).toContain('receipts-test-1234');
  });

  it('refuses an auth domain given as a URL', () => {
    const error = configError({
      ...TEST_CONTEXT,
      firebaseWebConfig: { ...TEST_CONTEXT.firebaseWebConfig, authDomain: 'https://x.firebaseapp.com' },
    });
    expect(error.message).toContain('"firebaseWebConfig.authDomain"');
    expect(error.message).toContain('without https://');
  });

  it('refuses an admin list with something that is not an e-mail address', () => {
    const error = configError({ ...TEST_CONTEXT, adminEmails: ['admin@example.com', 'not-an-address'] });
    expect(error.message).toContain('"adminEmails.1"');
  });

  it('needs the Azure secret name when the store is Azure Tables', () => {
    const error = configError({ ...TEST_CONTEXT, storageBackend: 'azure' });
    expect(error.message).toContain('"azureTablesSecretName" is required when storageBackend is "azure"');
    expect(
      readConfig(
        source({ ...TEST_CONTEXT, storageBackend: 'azure', azureTablesSecretName: 'receipts/azure' }),
      ),
    ).toMatchObject({ storageBackend: 'azure', azureTablesSecretName: 'receipts/azure' });
  });

  it('refuses an unknown storage backend and a log retention CloudWatch does not offer', () => {
    expect(configError({ ...TEST_CONTEXT, storageBackend: 'postgres' }).message).toContain(
      '"storageBackend"',
    );
    expect(configError({ ...TEST_CONTEXT, logRetentionDays: 31 }).message).toContain(
      '"logRetentionDays" must be one of',
    );
  });

  it('ends the CDK app with the message, not a stack trace, when context is missing', () => {
    const env = { ...process.env };
    delete env.CDK_CONTEXT_JSON;
    delete env.CDK_OUTDIR;
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'infra/bin/app.ts')], {
      cwd: REPO_ROOT,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Missing CDK context "firebaseProjectId"');
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });
});
