import { ConfigurationError } from '@receipts/core';
import { z } from 'zod';

const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const positiveInt = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number of at least 1, not "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const schema = z.object({
  STORAGE_BACKEND: z.enum(['azure', 'dynamodb']).default('azure'),
  AZURE_TABLES_CONNECTION_STRING: optional,
  AZURE_TABLES_SECRET_ARN: optional,
  DYNAMODB_TABLE: optional.transform((v) => v ?? 'receipts'),
  DYNAMODB_ENDPOINT: optional,
  BLOB_STORE: z.enum(['local', 's3']).default('local'),
  BLOB_DIR: optional,
  S3_BUCKET: optional,
  ANALYZER: z.enum(['ocr', 'textract']).default('ocr'),
  SCAN_QUEUE: z.enum(['memory', 'sqs']).default('memory'),
  SCAN_QUEUE_URL: optional,
  NOTIFIER: z.enum(['log', 'fcm']).default('log'),
  FIREBASE_PROJECT_ID: optional.transform((v) => v ?? 'demo-receipts'),
  FIREBASE_AUTH_EMULATOR_HOST: optional,
  FIREBASE_SERVICE_ACCOUNT_SECRET_ARN: optional,
  ADMIN_EMAILS: optional.transform((v) =>
    (v ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  ),
  MAX_SCAN_ATTEMPTS: positiveInt(3),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  PORT: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return 8080;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 65535) {
        ctx.addIssue({ code: 'custom', message: `must be a port number (0-65535), not "${v}"` });
        return z.NEVER;
      }
      return n;
    }),
  DATA_DIR: optional.transform((v) => v ?? '.data'),
  AWS_LAMBDA_FUNCTION_NAME: optional,
});

/** The app's settings, read from environment variables in this one place (see README "Configuration"). */
export type AppConfig = z.output<typeof schema> & {
  /** Folder of the local blob store (BLOB_DIR, default `<DATA_DIR>/blobs`). */
  BLOB_DIR: string;
  /** True inside AWS Lambda. */
  inCloud: boolean;
};

/**
 * Reads and checks the configuration.
 * @param env - the environment (default `process.env`)
 * @throws ConfigurationError naming each wrong variable and what it must be
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new ConfigurationError(`The configuration is not valid: ${problems.join('; ')}.`, {
      code: 'InvalidConfiguration',
    });
  }
  const c = parsed.data;
  const config: AppConfig = {
    ...c,
    BLOB_DIR: c.BLOB_DIR ?? `${c.DATA_DIR}/blobs`,
    inCloud: c.AWS_LAMBDA_FUNCTION_NAME !== undefined,
  };
  const missing = (name: string, why: string) =>
    new ConfigurationError(`${name} must be set ${why}.`, { code: 'MissingSetting' });
  if (config.inCloud && config.FIREBASE_AUTH_EMULATOR_HOST) {
    // firebase-admin accepts unsigned tokens when this is set: never in a deployed function.
    throw new ConfigurationError(
      'FIREBASE_AUTH_EMULATOR_HOST is set in a deployed function; ID tokens would be accepted unsigned. Remove it.',
      { code: 'EmulatorInCloud' },
    );
  }
  if (
    config.STORAGE_BACKEND === 'azure' &&
    !config.AZURE_TABLES_CONNECTION_STRING &&
    !config.AZURE_TABLES_SECRET_ARN
  ) {
    throw missing(
      'AZURE_TABLES_CONNECTION_STRING (or AZURE_TABLES_SECRET_ARN)',
      'when STORAGE_BACKEND is azure',
    );
  }
  if (config.BLOB_STORE === 's3' && !config.S3_BUCKET) throw missing('S3_BUCKET', 'when BLOB_STORE is s3');
  if (config.SCAN_QUEUE === 'sqs' && !config.SCAN_QUEUE_URL)
    throw missing('SCAN_QUEUE_URL', 'when SCAN_QUEUE is sqs');
  return config;
}
