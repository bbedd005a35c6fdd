import {
  ConfigurationError,
  createReportCache,
  type AdminPolicy,
  type Analyzer,
  type BlobStore,
  type Enricher,
  type ExportStore,
  type IdentityVerifier,
  type Logger,
  type Notifier,
  type PdfPreviewer,
  type ReportsCache,
  type ScanQueue,
  type TableStore,
  type UploadQuotas,
} from '@receipts/core';
import type { BrandOption } from '@receipts/core/contract/edits';
import { createJsonLogger } from '@receipts/logger-json';
import { LogNotifier } from '@receipts/notifier-log';
import type { Context } from 'aws-lambda';
import { loadConfig, type AppConfig } from './config';
import { importAdapter, lazyPort } from './lazy-port';
import { parseServiceAccountKey, type ServiceAccountKey } from './service-account';

/**
 * The one place that reads the configuration and picks the adapters, for the Lambda functions, the
 * local stack (dev/), the scan worker and the tools alike: `createServices(config)` builds them all.
 * Handlers get their ports from here and never construct an SDK client themselves.
 *
 * Each adapter is imported on the first call of its port (see lazyPort): a function loads only the
 * adapters and SDK clients its route uses, and its bundle holds only those (infra/lib/bundling.ts
 * leaves the others out).
 */
export interface Services {
  config: AppConfig;
  logger: Logger;
  store: TableStore;
  blobs: BlobStore;
  queue: ScanQueue;
  identity: IdentityVerifier;
  notifier: Notifier;
  admin: AdminPolicy;
  /**
   * Where a data download too large for one answer is kept for a link (S3 when BLOB_STORE=s3);
   * without it the Lambda answers such a download with 413 and the local server streams it.
   */
  exports?: ExportStore;
  /** Per-user upload limits, from the configuration. */
  quotas: UploadQuotas;
  /** The read models this process (a Lambda instance, the local server) keeps of recent users. */
  reportCache: ReportsCache;
  /**
   * Draws a PDF receipt's first page for previews; only the local server has one (pdf.js and a native
   * canvas are not bundled for Lambda), elsewhere a PDF is shown as a PDF.
   */
  previewer?: PdfPreviewer;
  /** The brand dataset (name and owner) for the item form; loaded on first use. */
  loadBrandCatalog(): Promise<readonly BrandOption[]>;
  /**
   * The scan worker's analyzer (ANALYZER, OCR_ENGINE, OCR_WORKERS), built on the first call: the API
   * functions never call it, so never load OCR or Textract code.
   */
  analyzer(): Promise<Analyzer>;
  /** The brand dictionary that fills brands and owners into an analysis, built on the first call; null for none. */
  enricher(): Promise<Enricher | null>;
  /**
   * The value CloudFront puts in ORIGIN_VERIFY_HEADER of every /api request (deployed), or null
   * when requests need not come through CloudFront (local server, tests).
   */
  originSecret: string | null;
  /** Releases what the services hold (the analyzer's OCR workers, the FCM notifier's firebase-admin app). */
  close(): Promise<void>;
}

/** What a caller may supply instead of the configured adapter (the local server supplies its queue). */
export type ServiceOverrides = Partial<
  Pick<Services, 'logger' | 'store' | 'blobs' | 'exports' | 'queue' | 'identity' | 'notifier' | 'previewer'>
> & {
  /** An analyzer instead of the configured one (tests, benchmarks). */
  analyzer?: Analyzer;
  /** A brand dictionary instead of the shipped one; null for none. */
  enricher?: Enricher | null;
};

/** `load` run once, on the first call; a failed load is tried again on the next call. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/** Reads a secret's text from AWS Secrets Manager (cloud only). */
async function readSecret(arn: string, name: string): Promise<string> {
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const client = new SecretsManagerClient({});
  try {
    const answer = await client.send(new GetSecretValueCommand({ SecretId: arn }));
    if (!answer.SecretString) {
      throw new ConfigurationError(`The secret of ${name} is empty.`, { code: 'EmptySecret' });
    }
    return answer.SecretString;
  } finally {
    client.destroy();
  }
}

async function createStore(config: AppConfig, logger: Logger): Promise<TableStore> {
  if (config.STORAGE_BACKEND === 'dynamodb') {
    const [{ DynamoDBClient }, { DynamoTableStore, createStoreTable }] = await Promise.all([
      import('@aws-sdk/client-dynamodb'),
      importAdapter('@receipts/store-dynamo', () => import('@receipts/store-dynamo')),
    ]);
    const client = new DynamoDBClient(
      config.DYNAMODB_ENDPOINT
        ? {
            endpoint: config.DYNAMODB_ENDPOINT,
            // A local endpoint (dynalite) takes any credentials; the SDK still wants some.
            region: process.env.AWS_REGION ?? 'us-east-1',
            credentials: process.env.AWS_ACCESS_KEY_ID
              ? undefined
              : { accessKeyId: 'local', secretAccessKey: 'local' },
          }
        : {},
    );
    // In AWS the stack creates the table; a local endpoint (dynalite) gets it here, idempotently.
    if (config.DYNAMODB_ENDPOINT) await createStoreTable(client, config.DYNAMODB_TABLE);
    return new DynamoTableStore({ client, tableName: config.DYNAMODB_TABLE, logger });
  }
  const { AzureTableStore, isTableAccess, parseTableAccess } = await importAdapter(
    '@receipts/store-azure',
    () => import('@receipts/store-azure'),
  );
  if (!config.AZURE_TABLES_CONNECTION_STRING && !config.AZURE_TABLES_SECRET_ARN) {
    throw new ConfigurationError(
      'AZURE_TABLES_CONNECTION_STRING (or AZURE_TABLES_SECRET_ARN) must be set when STORAGE_BACKEND is azure.',
      { code: 'MissingSetting' },
    );
  }
  const secret =
    config.AZURE_TABLES_CONNECTION_STRING ??
    (await readSecret(config.AZURE_TABLES_SECRET_ARN as string, 'AZURE_TABLES_SECRET_ARN'));
  logger.debug('table store: Azure Tables');
  // A deployed function's secret holds its access level's per-table signatures (npm run
  // tables:access), never the account key; a connection string works too (local runs, tools).
  return isTableAccess(secret)
    ? AzureTableStore.fromTableAccess(parseTableAccess(secret), { logger })
    : AzureTableStore.fromConnectionString(secret.trim(), { logger });
}

async function createBlobs(config: AppConfig): Promise<BlobStore> {
  if (config.BLOB_STORE === 's3') {
    const [{ S3Client }, { S3BlobStore }] = await Promise.all([
      import('@aws-sdk/client-s3'),
      importAdapter('@receipts/blob-s3', () => import('@receipts/blob-s3')),
    ]);
    return new S3BlobStore({ client: new S3Client({}), bucket: config.S3_BUCKET as string });
  }
  const { LocalBlobStore } = await importAdapter(
    '@receipts/blob-local',
    () => import('@receipts/blob-local'),
  );
  return new LocalBlobStore({ root: config.BLOB_DIR });
}

/** The S3 export store beside the S3 image bucket. */
async function createExports(config: AppConfig): Promise<ExportStore> {
  const [{ S3Client }, { S3ExportStore }] = await Promise.all([
    import('@aws-sdk/client-s3'),
    importAdapter('@receipts/blob-s3', () => import('@receipts/blob-s3')),
  ]);
  return new S3ExportStore({ client: new S3Client({}), bucket: config.S3_BUCKET as string });
}

async function createQueue(config: AppConfig): Promise<ScanQueue> {
  const [{ SQSClient }, { SqsScanQueue }] = await Promise.all([
    import('@aws-sdk/client-sqs'),
    importAdapter('@receipts/queue-sqs', () => import('@receipts/queue-sqs')),
  ]);
  return new SqsScanQueue({ client: new SQSClient({}), queueUrl: config.SCAN_QUEUE_URL as string });
}

/**
 * The configured analyzer (the scan worker's), imported only when asked for: the API functions never
 * load OCR or Textract code.
 * @param config - ANALYZER picks `ocr` (local, offline) or `textract`; OCR_ENGINE the local OCR
 *   engine, OCR_WORKERS its threads
 */
async function createAnalyzer(config: AppConfig): Promise<Analyzer> {
  if (config.ANALYZER === 'textract') {
    const [{ TextractClient }, { TextractAnalyzer }, { DictionaryEnricher }] = await Promise.all([
      import('@aws-sdk/client-textract'),
      importAdapter('@receipts/analyzer-textract', () => import('@receipts/analyzer-textract')),
      importAdapter('@receipts/enricher-brands', () => import('@receipts/enricher-brands')),
    ]);
    return new TextractAnalyzer({ client: new TextractClient({}), chains: new DictionaryEnricher() });
  }
  const [{ OcrAnalyzer }, { DictionaryEnricher }] = await Promise.all([
    importAdapter('@receipts/analyzer-ocr', () => import('@receipts/analyzer-ocr')),
    importAdapter('@receipts/enricher-brands', () => import('@receipts/enricher-brands')),
  ]);
  // The brand dictionary's store chains are the analyzer's knowledge of chains: a chain the receipt
  // names anywhere (logo, web address, footer) names the shop.
  return OcrAnalyzer.create({
    workers: config.OCR_WORKERS,
    engine: config.OCR_ENGINE,
    chains: new DictionaryEnricher(),
  });
}

/**
 * Powertools (request id, cold start, error serialisation) on Lambda; the one-line JSON logger of
 * core elsewhere (the local stack, the CLI).
 */
async function createLogger(config: AppConfig): Promise<Logger> {
  if (!config.inCloud) return createJsonLogger(config.LOG_LEVEL);
  const { PowertoolsLogger } = await import('./powertools-logger');
  return new PowertoolsLogger({ level: config.LOG_LEVEL });
}

/** A logger that can tag its lines with the Lambda invocation (see PowertoolsLogger). */
interface InvocationLogger extends Logger {
  addContext(context: Context): void;
}

/**
 * Tags what the services log during this invocation with its request id and cold start. Does
 * nothing without a context (the local server) or with a logger that cannot (the JSON logger).
 * @param services - the process's services
 * @param context - the Lambda context the handler was called with, if any
 */
export function bindInvocation(services: Pick<Services, 'logger'>, context: Context | undefined): void {
  const logger = services.logger as Partial<InvocationLogger>;
  if (context && typeof logger.addContext === 'function') logger.addContext(context);
}

/**
 * Builds the services from the configuration.
 * @param config - the settings (see loadConfig)
 * @param overrides - adapters supplied by the caller instead of the configured ones
 * @throws ConfigurationError when a setting or secret is missing or wrong
 */
export async function createServices(config: AppConfig, overrides: ServiceOverrides = {}): Promise<Services> {
  const logger = overrides.logger ?? (await createLogger(config));
  if (!overrides.queue && config.SCAN_QUEUE !== 'sqs') {
    throw new ConfigurationError(
      'SCAN_QUEUE=memory runs the scan worker inside the local server (npm start); a function on its own needs SCAN_QUEUE=sqs and SCAN_QUEUE_URL.',
      { code: 'MemoryQueueOutsideLocalServer' },
    );
  }
  const originSecret = config.ORIGIN_VERIFY_SECRET ?? null;
  const projectId = config.FIREBASE_PROJECT_ID;

  // The Firebase service account key, read from Secrets Manager on first need (deleting a sign-in
  // account, push messages) and checked here; verifying ID tokens needs none.
  const firebaseCredentials = once(async (): Promise<ServiceAccountKey | undefined> => {
    const arn = config.FIREBASE_SERVICE_ACCOUNT_SECRET_ARN;
    return arn
      ? parseServiceAccountKey(await readSecret(arn, 'FIREBASE_SERVICE_ACCOUNT_SECRET_ARN'))
      : undefined;
  });
  const analyzer = once(async () => overrides.analyzer ?? createAnalyzer(config));
  const enricher = once(async () =>
    overrides.enricher !== undefined
      ? overrides.enricher
      : importAdapter('@receipts/enricher-brands', () => import('@receipts/enricher-brands')).then(
          ({ DictionaryEnricher }) => new DictionaryEnricher(),
        ),
  );
  let analyzerBuilt: Promise<Analyzer> | undefined;
  // The FCM notifier (the scan worker's), made on first push; close() releases its firebase-admin app.
  let fcm: { close(): Promise<void> } | undefined;

  const store =
    overrides.store ??
    lazyPort<TableStore>(() => createStore(config, logger), {
      listTables: true,
      createTable: true,
      deleteTable: true,
      createEntity: true,
      getEntity: true,
      getEntities: true,
      listEntities: true,
      updateEntity: true,
      upsertEntity: true,
      deleteEntity: true,
      submitTransaction: true,
    });
  const blobs =
    overrides.blobs ??
    lazyPort<BlobStore>(() => createBlobs(config), { put: true, get: true, delete: true, list: true });
  const exports =
    'exports' in overrides
      ? overrides.exports
      : config.BLOB_STORE === 's3'
        ? lazyPort<ExportStore>(() => createExports(config), { save: true, link: true })
        : undefined;
  const queue = overrides.queue ?? lazyPort<ScanQueue>(() => createQueue(config), { enqueue: true });
  const identity =
    overrides.identity ??
    lazyPort<IdentityVerifier>(
      async () => {
        const { FirebaseIdentityVerifier } = await importAdapter(
          '@receipts/identity-firebase',
          () => import('@receipts/identity-firebase'),
        );
        return new FirebaseIdentityVerifier({
          projectId,
          ...(config.FIREBASE_WEB_API_KEY ? { apiKey: config.FIREBASE_WEB_API_KEY } : {}),
          credentials: firebaseCredentials,
        });
      },
      { verify: true, deleteAccount: true },
    );
  const notifier =
    overrides.notifier ??
    (config.NOTIFIER === 'fcm'
      ? lazyPort<Notifier>(
          async () => {
            const [credentials, { FcmNotifier }] = await Promise.all([
              firebaseCredentials(),
              importAdapter('@receipts/notifier-fcm', () => import('@receipts/notifier-fcm')),
            ]);
            const made = new FcmNotifier({ projectId, ...(credentials ? { credentials } : {}) });
            fcm = made;
            return made;
          },
          { send: true },
        )
      : new LogNotifier({ logger }));
  return {
    config,
    logger,
    store,
    blobs,
    ...(exports ? { exports } : {}),
    queue,
    identity,
    notifier,
    ...(overrides.previewer ? { previewer: overrides.previewer } : {}),
    quotas: config.quotas,
    reportCache: createReportCache(),
    loadBrandCatalog,
    analyzer: () => (analyzerBuilt = analyzer()),
    enricher,
    originSecret,
    admin: {
      emails: config.ADMIN_EMAILS,
      // Anyone can create an e-mail account with someone else's address; in the cloud only a
      // verified address counts. The local emulator has no mail to verify with.
      requireVerifiedEmail: !config.FIREBASE_AUTH_EMULATOR_HOST,
    },
    async close() {
      await (await analyzerBuilt?.catch(() => undefined))?.close?.();
      await fcm?.close();
      fcm = undefined;
    },
  };
}

let brands: Promise<readonly BrandOption[]> | undefined;

/** The shipped brand dataset, one option per brand, read once per process. */
function loadBrandCatalog(): Promise<readonly BrandOption[]> {
  brands ??= importAdapter('@receipts/enricher-brands', () => import('@receipts/enricher-brands')).then(
    ({ BRANDS }) =>
      BRANDS.map((b) => ({
        name: b.brand,
        owning_corporation: b.owning_corporation,
        ...(b.owners_by_country ? { owners_by_country: b.owners_by_country } : {}),
      })),
  );
  return brands;
}

/**
 * The services of a Lambda function, built once from `process.env` on the first invocation and kept
 * by the container between invocations; a failed start (say, a secret not readable yet) is tried
 * again on the next one. The local stack and tests build theirs with createServices and hand them
 * to the handlers (see RouteHandler.serve).
 */
export const getServices: () => Promise<Services> = once(() => createServices(loadConfig()));
