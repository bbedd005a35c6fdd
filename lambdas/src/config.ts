import { ConfigurationError, DEFAULT_UPLOAD_QUOTAS, type UploadQuotas } from '@receipts/core';
import * as z from 'zod';

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
  OCR_ENGINE: z.enum(['tesseract', 'paddle', 'combined']).default('combined'),
  OCR_WORKERS: positiveInt(1),
  SCAN_QUEUE: z.enum(['memory', 'sqs']).default('memory'),
  SCAN_QUEUE_URL: optional,
  NOTIFIER: z.enum(['log', 'fcm']).default('log'),
  FIREBASE_PROJECT_ID: optional.transform((v) => v ?? 'demo-receipts'),
  FIREBASE_AUTH_EMULATOR_HOST: optional,
  FIREBASE_SERVICE_ACCOUNT_SECRET_ARN: optional,
  FIREBASE_WEB_API_KEY: optional,
  ORIGIN_VERIFY_SECRET: optional,
  ADMIN_EMAILS: optional.transform((v) =>
    (v ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  ),
  ALLOWED_HOSTS: optional.transform((v) =>
    (v ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  ),
  MAX_SCAN_ATTEMPTS: positiveInt(3),
  QUOTA_UPLOADS_PER_DAY: positiveInt(DEFAULT_UPLOAD_QUOTAS.uploadsPerDay),
  QUOTA_PENDING_SCANS: positiveInt(DEFAULT_UPLOAD_QUOTAS.pendingScans),
  QUOTA_STORED_MB: positiveInt(DEFAULT_UPLOAD_QUOTAS.storedBytes / (1024 * 1024)),
  QUOTA_REANALYSES_PER_DAY: positiveInt(DEFAULT_UPLOAD_QUOTAS.reanalysesPerDay),
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

/**
 * Variables a cloud runtime sets in every process it runs, by runtime. The local emulators must
 * never be trusted there, whichever runtime it is.
 */
const CLOUD_RUNTIME_MARKERS: [variable: string, runtime: string][] = [
  ['AWS_LAMBDA_FUNCTION_NAME', 'AWS Lambda'],
  ['AWS_EXECUTION_ENV', 'an AWS runtime (Lambda, ECS, App Runner, Elastic Beanstalk)'],
  ['ECS_CONTAINER_METADATA_URI_V4', 'Amazon ECS'],
  ['ECS_CONTAINER_METADATA_URI', 'Amazon ECS'],
  ['K_SERVICE', 'Google Cloud Run or Cloud Functions'],
  ['FUNCTION_TARGET', 'Google Cloud Functions'],
  ['GAE_SERVICE', 'Google App Engine'],
  ['WEBSITE_INSTANCE_ID', 'Azure App Service'],
  ['FUNCTIONS_WORKER_RUNTIME', 'Azure Functions'],
  ['CONTAINER_APP_NAME', 'Azure Container Apps'],
  ['DYNO', 'Heroku'],
  ['FLY_APP_NAME', 'Fly.io'],
  ['VERCEL', 'Vercel'],
  ['RENDER', 'Render'],
  ['RAILWAY_ENVIRONMENT', 'Railway'],
];

/** Settings that point the app at a local emulator; refused in any cloud runtime. */
const EMULATOR_SETTINGS = ['FIREBASE_AUTH_EMULATOR_HOST', 'FIREBASE_EMULATOR_HUB'];

/** The cloud runtime this process runs in, from the variables it sets, or null. */
export function cloudRuntimeOf(env: Record<string, string | undefined>): string | null {
  for (const [variable, runtime] of CLOUD_RUNTIME_MARKERS) {
    if (env[variable]?.trim()) return `${runtime} (${variable} is set)`;
  }
  return null;
}

/** The app's settings, read from environment variables in this one place (see README "Configuration"). */
export type AppConfig = z.output<typeof schema> & {
  /** Folder of the local blob store (BLOB_DIR, default `<DATA_DIR>/blobs`). */
  BLOB_DIR: string;
  /** The per-user upload limits (QUOTA_*). */
  quotas: UploadQuotas;
  /** True inside a cloud runtime (see cloudRuntimeOf), AWS Lambda or any other. */
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
  const runtime = cloudRuntimeOf(env);
  const config: AppConfig = {
    ...c,
    BLOB_DIR: c.BLOB_DIR ?? `${c.DATA_DIR}/blobs`,
    inCloud: runtime !== null,
    quotas: {
      uploadsPerDay: c.QUOTA_UPLOADS_PER_DAY,
      pendingScans: c.QUOTA_PENDING_SCANS,
      storedBytes: c.QUOTA_STORED_MB * 1024 * 1024,
      reanalysesPerDay: c.QUOTA_REANALYSES_PER_DAY,
    },
  };
  const missing = (name: string, why: string) =>
    new ConfigurationError(`${name} must be set ${why}.`, { code: 'MissingSetting' });
  const emulators = EMULATOR_SETTINGS.filter((name) => env[name]?.trim());
  if (runtime && emulators.length > 0) {
    // With the Auth emulator set, ID tokens are accepted unsigned (as it issues them): never in the cloud.
    throw new ConfigurationError(
      `${emulators.join(' and ')} ${emulators.length > 1 ? 'are' : 'is'} set while running in ${runtime}; ` +
        'ID tokens would be accepted unsigned. Remove it from the deployed environment.',
      { code: 'EmulatorInCloud' },
    );
  }
  // AZURE_TABLES_CONNECTION_STRING or AZURE_TABLES_SECRET_ARN is checked when the store is first
  // used: a deployed function that touches no table (the log route) has neither.
  if (config.BLOB_STORE === 's3' && !config.S3_BUCKET) throw missing('S3_BUCKET', 'when BLOB_STORE is s3');
  if (config.SCAN_QUEUE === 'sqs' && !config.SCAN_QUEUE_URL)
    throw missing('SCAN_QUEUE_URL', 'when SCAN_QUEUE is sqs');
  return config;
}
