import {
  ConfigurationError,
  createJsonLogger,
  LogNotifier,
  type AdminPolicy,
  type BlobStore,
  type BrandOption,
  type ExportStore,
  type IdentityVerifier,
  type Logger,
  type Notifier,
  type PdfPreviewer,
  type ScanQueue,
  type TableStore,
  type UploadQuotas,
} from '@receipts/core';
import type { Context } from 'aws-lambda';
import type { FirebaseApp } from '@receipts/identity-firebase';
import { loadConfig, type AppConfig } from './config';

/**
 * The one place that reads the configuration and picks the adapters. Handlers get their ports from
 * here and never construct an SDK client themselves.
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
  /**
   * Draws a PDF receipt's first page for previews; only the local server has one (pdf.js and a native
   * canvas are not bundled for Lambda), elsewhere a PDF is shown as a PDF.
   */
  previewer?: PdfPreviewer;
  /** The brand dataset (name and owner) for the item form; loaded on first use. */
  loadBrandCatalog(): Promise<readonly BrandOption[]>;
  /**
   * The value CloudFront puts in ORIGIN_VERIFY_HEADER of every /api request (deployed), or null
   * when requests need not come through CloudFront (local server, tests).
   */
  originSecret: string | null;
  /** Releases what the services hold (firebase-admin apps). */
  close(): Promise<void>;
}

/** What a caller may supply instead of the configured adapter (the local server supplies its queue). */
export type ServiceOverrides = Partial<
  Pick<Services, 'logger' | 'store' | 'blobs' | 'exports' | 'queue' | 'identity' | 'notifier' | 'previewer'>
>;

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
      import('@receipts/store-dynamo'),
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
  const { AzureTableStore } = await import('@receipts/store-azure');
  const connectionString =
    config.AZURE_TABLES_CONNECTION_STRING ??
    (await readSecret(config.AZURE_TABLES_SECRET_ARN as string, 'AZURE_TABLES_SECRET_ARN'));
  logger.debug('table store: Azure Tables');
  return AzureTableStore.fromConnectionString(connectionString.trim(), { logger });
}

async function createBlobs(config: AppConfig): Promise<BlobStore> {
  if (config.BLOB_STORE === 's3') {
    const [{ S3Client }, { S3BlobStore }] = await Promise.all([
      import('@aws-sdk/client-s3'),
      import('@receipts/blob-s3'),
    ]);
    return new S3BlobStore({ client: new S3Client({}), bucket: config.S3_BUCKET as string });
  }
  const { LocalBlobStore } = await import('@receipts/blob-local');
  return new LocalBlobStore({ root: config.BLOB_DIR });
}

/** The S3 export store beside the S3 image bucket; none for the local blob store. */
async function createExports(config: AppConfig): Promise<ExportStore | undefined> {
  if (config.BLOB_STORE !== 's3') return undefined;
  const [{ S3Client }, { S3ExportStore }] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@receipts/blob-s3'),
  ]);
  return new S3ExportStore({ client: new S3Client({}), bucket: config.S3_BUCKET as string });
}

async function createQueue(config: AppConfig): Promise<ScanQueue> {
  if (config.SCAN_QUEUE === 'sqs') {
    const [{ SQSClient }, { SqsScanQueue }] = await Promise.all([
      import('@aws-sdk/client-sqs'),
      import('@receipts/queue-sqs'),
    ]);
    return new SqsScanQueue({ client: new SQSClient({}), queueUrl: config.SCAN_QUEUE_URL as string });
  }
  throw new ConfigurationError(
    'SCAN_QUEUE=memory runs the scan worker inside the local server (npm start); a function on its own needs SCAN_QUEUE=sqs and SCAN_QUEUE_URL.',
    { code: 'MemoryQueueOutsideLocalServer' },
  );
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
  const credentialsJson = config.FIREBASE_SERVICE_ACCOUNT_SECRET_ARN
    ? await readSecret(config.FIREBASE_SERVICE_ACCOUNT_SECRET_ARN, 'FIREBASE_SERVICE_ACCOUNT_SECRET_ARN')
    : undefined;
  const originSecret = config.ORIGIN_VERIFY_SECRET ?? null;
  const firebase = { projectId: config.FIREBASE_PROJECT_ID, ...(credentialsJson ? { credentialsJson } : {}) };

  const [store, blobs, exports, queue] = await Promise.all([
    overrides.store ?? createStore(config, logger),
    overrides.blobs ?? createBlobs(config),
    'exports' in overrides ? overrides.exports : createExports(config),
    overrides.queue ?? createQueue(config),
  ]);
  // One firebase-admin app for the process, shared by the identity verifier and the FCM notifier.
  let app: FirebaseApp | undefined;
  const firebaseApp = async (): Promise<FirebaseApp> => {
    app ??= (await import('@receipts/identity-firebase')).createFirebaseApp(firebase);
    return app;
  };
  let identity = overrides.identity;
  if (!identity) {
    const { FirebaseIdentityVerifier } = await import('@receipts/identity-firebase');
    identity = new FirebaseIdentityVerifier({
      ...firebase,
      ...(config.FIREBASE_WEB_API_KEY ? { apiKey: config.FIREBASE_WEB_API_KEY } : {}),
      app: await firebaseApp(),
    });
  }
  let notifier = overrides.notifier;
  if (!notifier) {
    if (config.NOTIFIER === 'fcm') {
      const { FcmNotifier } = await import('@receipts/notifier-fcm');
      notifier = new FcmNotifier({ ...firebase, app: await firebaseApp() });
    } else {
      notifier = new LogNotifier({ logger });
    }
  }
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
    loadBrandCatalog,
    originSecret,
    admin: {
      emails: config.ADMIN_EMAILS,
      // Anyone can create an e-mail account with someone else's address; in the cloud only a
      // verified address counts. The local emulator has no mail to verify with.
      requireVerifiedEmail: !config.FIREBASE_AUTH_EMULATOR_HOST,
    },
    async close() {
      if (app) await (await import('@receipts/identity-firebase')).deleteFirebaseApp(app);
    },
  };
}

let brands: Promise<readonly BrandOption[]> | undefined;

/** The shipped brand dataset, one option per brand, read once per process. */
function loadBrandCatalog(): Promise<readonly BrandOption[]> {
  brands ??= import('@receipts/enricher-brands').then(({ BRANDS }) =>
    BRANDS.map((b) => ({ name: b.brand, owning_corporation: b.owning_corporation })),
  );
  return brands;
}

let current: Promise<Services> | undefined;

/**
 * The services of this process: those installed by the local server, or else built once from
 * `process.env` (a Lambda container keeps them between invocations).
 */
export function getServices(): Promise<Services> {
  current ??= createServices(loadConfig()).catch((error: unknown) => {
    // A failed start (say, a secret not readable yet) is tried again on the next request.
    current = undefined;
    throw error;
  });
  return current;
}

/** Makes the handlers of this process use `services` (the local server); undefined forgets them. */
export function installServices(services: Services | undefined): void {
  current = services ? Promise.resolve(services) : undefined;
}
