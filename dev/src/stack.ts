import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AppError,
  ConfigurationError,
  cachedPdfPreviewer,
  failDeadLetteredScan,
  resumeScans,
  SCAN_CLAIM_LEASE_MS,
  sweepScans,
  type Analyzer,
  type Enricher,
  type Logger,
  type ScanJob,
  type TableStore,
  type PdfPreviewer,
} from '@receipts/core';
import { createJsonLogger } from '@receipts/logger-json';
import { MemoryScanQueue } from '@receipts/queue-memory';
import { loadConfig } from '@receipts/lambdas/config';
import { createServices, type Services } from '@receipts/lambdas/composition';
import { routeHandlers } from '@receipts/lambdas/route-handlers';
import { createScanWorker, type ScanWorker } from '@receipts/lambdas/worker';
import { emulatorAccounts, startAuthEmulator, type AuthEmulator } from './firebase-auth-emulator';
import { startLocalServer, type LocalServer } from './server';

/** Width in pixels of a PDF receipt's first-page preview: sharp in the 900 px image modal on a phone. */
const PDF_PREVIEW_WIDTH = 600;

/** The Auth emulator takes any Web API key; the web app and the server use this one. */
const LOCAL_WEB_API_KEY = 'demo-key';

/** How often the local stack sweeps its scan queue (see sweepScans). */
const LOCAL_SWEEP_MS = 60_000;

/**
 * Deliveries of a scan job whose worker could not record its failure before the job is handled as
 * dead-lettered (its scan marked Failed, to Retry): the cloud queue's maxReceiveCount
 * (MAX_RECEIVE_COUNT in infra/lib/pipeline-stack.ts).
 */
const LOCAL_MAX_RECEIVE_COUNT = 5;

/**
 * Seconds a failed delivery waits before it is made again, by default. As in the cloud (a 12-minute
 * visibility timeout over a 5-minute claim), longer than a scan's claim holds, so that the delivery
 * after a failed one finds the claim expired and analyses, rather than waiting for it again.
 */
const visibilityTimeoutOf = (claimLeaseMs: number) => Math.ceil(claimLeaseMs / 1000) + 60;

/** Options of {@link startLocalStack}. */
export interface LocalStackOptions {
  /** Port of the app on 127.0.0.1 (0 = a free one; default 8080). */
  port?: number;
  /** Where everything is kept: tables, accounts, images. Survives a restart. */
  dataDir: string;
  /** Per-user upload limits instead of the QUOTA_* settings. */
  quotas?: { uploadsPerDay?: number; pendingScans?: number; storedMb?: number; reanalysesPerDay?: number };
  /** Port of the Firebase Auth emulator (default: a free one). */
  authEmulatorPort?: number;
  /**
   * `host:port` of an Auth emulator that is already running, to use instead of starting one (a soak
   * run restarts the stack often and keeps one emulator; test runs share one). Accounts are then made
   * on that emulator.
   */
  authEmulatorHost?: string;
  /** E-mails allowed to use the Storage Tester API. */
  adminEmails?: string[];
  /** 'ocr' (default) or 'textract', or an Analyzer to use as it is. */
  analyzer?: 'ocr' | 'textract' | Analyzer;
  /** The brand dictionary (default the shipped one; null for none). */
  enricher?: Enricher | null;
  /** Build the web app first when web/dist is missing or older than web/src (default false). */
  buildWeb?: boolean;
  /** 'azure' (default: Azurite under dataDir) or 'dynamodb' (dynalite under dataDir). */
  storageBackend?: 'azure' | 'dynamodb';
  /** An Azure Tables account to use instead of Azurite. */
  azureConnectionString?: string;
  /** A DynamoDB endpoint to use instead of dynalite (and DYNAMODB_TABLE, default `receipts`). */
  dynamodbEndpoint?: string;
  dynamodbTable?: string;
  /** Firebase project id (default demo-receipts). */
  projectId?: string;
  /** Analysis attempts before a scan is marked failed (default 3). */
  maxScanAttempts?: number;
  /** Seconds before a failed attempt is retried (default 10 s doubling). */
  retryDelaySeconds?: (attempt: number) => number;
  /** How long a scan's claim ('Analyzing') holds off other deliveries (default SCAN_CLAIM_LEASE_MS). */
  claimLeaseMs?: number;
  /**
   * Seconds before a scan job whose delivery failed (the worker could not even record it) is
   * delivered again; default the claim's lease plus a minute. Must be longer than the lease.
   */
  visibilityTimeoutSeconds?: number;
  /** OCR worker threads (default 1). */
  ocrWorkers?: number;
  /** Scans analysed at once (default 1). */
  scanConcurrency?: number;
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** Keep the emulators' own output out of the terminal. */
  quiet?: boolean;
  /**
   * Wraps the table and blob stores the API and the worker use (the soak run's faults); the
   * tables are set up and unfinished scans resumed on the stores as configured.
   */
  wrapPorts?: (ports: Pick<Services, 'store' | 'blobs'>) => Pick<Services, 'store' | 'blobs'>;
}

export interface LocalStack {
  /** The app: web pages, /config.json and /api. */
  url: string;
  port: number;
  /** `127.0.0.1:PORT` of the Auth emulator. */
  authEmulatorHost: string;
  projectId: string;
  dataDir: string;
  services: Services;
  /** Creates an account on the Auth emulator and returns its ID token. */
  signUp(
    email: string,
    password: string,
    displayName?: string,
  ): Promise<{ idToken: string; localId: string }>;
  signIn(email: string, password: string): Promise<{ idToken: string; localId: string }>;
  /** Resolves when no scan is queued, waiting for a retry or being analysed in this process. */
  idle(): Promise<void>;
  /** Stops everything; queued scans stay in the tables and are resumed by the next start. */
  stop(): Promise<void>;
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const WEB_DIR = join(REPO_ROOT, 'web');

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, await newestMtime(path));
    else newest = Math.max(newest, (await stat(path)).mtimeMs);
  }
  return newest;
}

/**
 * The built web app's folder, built first when `build` is set and its sources are newer than the
 * build (or there is none); null when there is no build to serve. Test runs build it once before
 * their stacks start (test/e2e/support/web-build-setup.ts), so stacks started side by side never
 * find a build half-written by another.
 */
export async function prepareWeb(build: boolean, logger: Logger): Promise<string | null> {
  const dist = join(WEB_DIR, 'dist');
  const built = existsSync(join(dist, 'index.html'));
  if (build && existsSync(join(WEB_DIR, 'src'))) {
    // The sources, and what else goes into the build: the public files (manifest, icons, push
    // worker), the page and the build config (which also builds the service worker).
    const inputs = Math.max(
      await newestMtime(join(WEB_DIR, 'src')),
      await newestMtime(join(WEB_DIR, 'public')),
      ...(await Promise.all(
        ['index.html', 'vite.config.ts'].map((file) =>
          stat(join(WEB_DIR, file)).then(
            (info) => info.mtimeMs,
            () => 0,
          ),
        ),
      )),
    );
    const builtAt = built
      ? await stat(join(dist, 'index.html')).then(
          (info) => info.mtimeMs,
          () => 0,
        )
      : 0;
    const stale = inputs > builtAt;
    if (stale) {
      logger.info('building the web app (npm run build:web)');
      const code = await new Promise<number>((done) => {
        const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build:web'], {
          cwd: REPO_ROOT,
          stdio: ['ignore', 'inherit', 'inherit'],
        });
        child.on('exit', (c) => done(c ?? 1));
        child.on('error', () => done(1));
      });
      if (code !== 0)
        logger.warn('the web app did not build; serving the API and a notice page', { exitCode: code });
    }
  }
  return existsSync(join(dist, 'index.html')) ? dist : null;
}

async function setUpTables(store: TableStore, logger: Logger): Promise<void> {
  const { setupTables } = await import('@receipts/store-azure');
  const outcomes = await setupTables(store, logger);
  const failed = outcomes.filter((o) => !o.ok);
  if (failed.length > 0) {
    throw new AppError(
      `The tables could not be set up: ${failed.map((o) => `${o.table} (${o.error})`).join('; ')}`,
      {
        code: 'TableSetupFailed',
      },
    );
  }
}

/** An Auth emulator run by someone else: used, not started or stopped; accounts are made through its REST API. */
function externalEmulator(host: string, projectId: string): AuthEmulator {
  return {
    host,
    port: Number(host.split(':').pop()),
    projectId,
    stop: async () => {},
    ...emulatorAccounts(host),
  };
}

/**
 * The whole app on one machine, offline: Azurite (or dynalite), the Firebase Auth emulator, the API
 * through the same handlers as on AWS, the scan worker in-process with the local OCR analyzer, and
 * the built web app, at one URL. Scans left queued or analysing by a previous run are resumed.
 *
 * Sets FIREBASE_AUTH_EMULATOR_HOST in this process (firebase-admin reads it to trust the emulator).
 *
 * @param options - ports, data folder, admins, analyzer
 * @throws AppError when an emulator cannot start or the tables cannot be set up
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const logLevel = options.logLevel ?? 'info';
  const logger = createJsonLogger(logLevel);
  const projectId = options.projectId ?? 'demo-receipts';
  const backend = options.storageBackend ?? 'azure';
  const cleanups: (() => Promise<void>)[] = [];
  const cleanUp = async () => {
    for (const fn of cleanups.reverse())
      await fn().catch((e: unknown) => logger.warn('stop step failed', { error: String(e) }));
    cleanups.length = 0;
  };

  try {
    const startStore = async (): Promise<Record<string, string>> => {
      if (backend === 'dynamodb') {
        const table = { DYNAMODB_TABLE: options.dynamodbTable ?? 'receipts' };
        if (options.dynamodbEndpoint) return { ...table, DYNAMODB_ENDPOINT: options.dynamodbEndpoint };
        const { startDynalite } = await import('./dynalite');
        const dynalite = await startDynalite({ path: join(dataDir, 'dynalite') });
        cleanups.push(() => dynalite.stop());
        return { ...table, DYNAMODB_ENDPOINT: dynalite.endpoint };
      }
      if (options.azureConnectionString)
        return { AZURE_TABLES_CONNECTION_STRING: options.azureConnectionString };
      const { startAzurite } = await import('./azurite');
      const azurite = await startAzurite({
        location: join(dataDir, 'azurite'),
        silent: options.quiet ?? false,
      });
      cleanups.push(() => azurite.stop());
      return { AZURE_TABLES_CONNECTION_STRING: azurite.connectionString };
    };
    const startAuth = async (): Promise<AuthEmulator> => {
      if (options.authEmulatorHost) return externalEmulator(options.authEmulatorHost, projectId);
      const emulator = await startAuthEmulator({
        dataDir: join(dataDir, 'auth'),
        projectId,
        silent: options.quiet ?? false,
        ...(options.authEmulatorPort !== undefined ? { port: options.authEmulatorPort } : {}),
      });
      cleanups.push(() => emulator.stop());
      return emulator;
    };
    const [storeEnv, auth, web] = await Promise.all([
      startStore(),
      startAuth(),
      prepareWeb(options.buildWeb ?? false, logger),
    ]);
    process.env.FIREBASE_AUTH_EMULATOR_HOST = auth.host;

    const config = loadConfig({
      ...process.env,
      ...storeEnv,
      STORAGE_BACKEND: backend,
      DATA_DIR: dataDir,
      BLOB_STORE: 'local',
      BLOB_DIR: join(dataDir, 'blobs'),
      SCAN_QUEUE: 'memory',
      NOTIFIER: 'log',
      FIREBASE_PROJECT_ID: projectId,
      FIREBASE_AUTH_EMULATOR_HOST: auth.host,
      FIREBASE_SERVICE_ACCOUNT_SECRET_ARN: '',
      FIREBASE_WEB_API_KEY: LOCAL_WEB_API_KEY,
      AZURE_TABLES_SECRET_ARN: '',
      ADMIN_EMAILS: (options.adminEmails ?? process.env.ADMIN_EMAILS?.split(',') ?? []).join(','),
      ANALYZER: typeof options.analyzer === 'string' ? options.analyzer : (process.env.ANALYZER ?? 'ocr'),
      ...(process.env.OCR_ENGINE ? { OCR_ENGINE: process.env.OCR_ENGINE } : {}),
      ...(options.ocrWorkers ? { OCR_WORKERS: String(options.ocrWorkers) } : {}),
      MAX_SCAN_ATTEMPTS: String(options.maxScanAttempts ?? process.env.MAX_SCAN_ATTEMPTS ?? 3),
      ...(options.quotas?.uploadsPerDay
        ? { QUOTA_UPLOADS_PER_DAY: String(options.quotas.uploadsPerDay) }
        : {}),
      ...(options.quotas?.pendingScans ? { QUOTA_PENDING_SCANS: String(options.quotas.pendingScans) } : {}),
      ...(options.quotas?.storedMb ? { QUOTA_STORED_MB: String(options.quotas.storedMb) } : {}),
      ...(options.quotas?.reanalysesPerDay
        ? { QUOTA_REANALYSES_PER_DAY: String(options.quotas.reanalysesPerDay) }
        : {}),
      LOG_LEVEL: logLevel,
    });
    if (config.inCloud) {
      throw new ConfigurationError('The local stack does not run inside AWS Lambda.', {
        code: 'LocalStackInCloud',
      });
    }

    // The queue calls the worker, which is built after the services that hold the queue. A failed
    // attempt is queued again by the scan use case itself, with its delay, as on SQS. A delivery
    // that could not even record its failure, or that found the scan held by another one, is made
    // again after the visibility timeout, and after the last one the scan is marked Failed, as the
    // cloud's dead-letter function does.
    const claimLeaseMs = options.claimLeaseMs ?? SCAN_CLAIM_LEASE_MS;
    const visibilityTimeoutSeconds = options.visibilityTimeoutSeconds ?? visibilityTimeoutOf(claimLeaseMs);
    if (visibilityTimeoutSeconds * 1000 <= claimLeaseMs) {
      throw new ConfigurationError(
        `The scan queue's visibility timeout (${visibilityTimeoutSeconds} s) must be longer than a scan's claim (${claimLeaseMs / 1000} s).`,
        { code: 'InvalidQueueOption' },
      );
    }
    const ref: { worker?: ScanWorker; services?: Services } = {};
    const queue = new MemoryScanQueue({
      concurrency: options.scanConcurrency ?? 1,
      visibilityTimeoutSeconds,
      maxReceiveCount: LOCAL_MAX_RECEIVE_COUNT,
      logger,
      handler: async (job: ScanJob) => {
        if (!ref.worker) return 'again';
        return (await ref.worker.process(job)).outcome === 'deferred' ? 'again' : 'done';
      },
      deadLetter: async (job: ScanJob) => {
        if (!ref.services) throw new AppError('The scan worker has not started yet.');
        await failDeadLetteredScan(ref.services, job);
      },
    });
    // PDF previews are drawn here only: pdf.js and its native canvas are not bundled for Lambda.
    // Each PDF's page is drawn once and kept; a page that would inflate past the limits is not drawn.
    const previewer: PdfPreviewer = cachedPdfPreviewer({
      firstPage: async (pdf) =>
        (await import('@receipts/analyzer-ocr')).renderPdfFirstPage(pdf, PDF_PREVIEW_WIDTH),
    });
    const configured = await createServices(config, {
      logger,
      queue,
      previewer,
      ...(typeof options.analyzer === 'object' ? { analyzer: options.analyzer } : {}),
      ...(options.enricher !== undefined ? { enricher: options.enricher } : {}),
    });
    cleanups.push(() => configured.close());
    await setUpTables(configured.store, logger);
    const services = options.wrapPorts ? { ...configured, ...options.wrapPorts(configured) } : configured;
    if (backend === 'dynamodb') logger.info('storage: DynamoDB', { endpoint: config.DYNAMODB_ENDPOINT });

    ref.services = services;
    ref.worker = await createScanWorker(services, {
      claimLeaseMs,
      ...(options.retryDelaySeconds ? { retryDelaySeconds: options.retryDelaySeconds } : {}),
    });
    // Stopping closes the queue before the services (and their analyzer): the scan under way
    // finishes, the ones not started stay in the queue table and are resumed by the next start.
    cleanups.push(() => queue.close());
    // Before the server takes requests: a scan still marked 'Analyzing' is then surely a dead run's.
    await resumeScans({ store: configured.store, queue, logger });
    // As the scheduled sweeper does in the cloud: lost scans queued again, stuck ones failed.
    const sweeper = setInterval(() => {
      sweepScans({ store: services.store, queue, logger, claimLeaseMs }).catch((error: unknown) =>
        logger.warn('sweep failed', { error: String(error) }),
      );
    }, LOCAL_SWEEP_MS);
    sweeper.unref();
    cleanups.push(async () => clearInterval(sweeper));

    const server: LocalServer = await startLocalServer({
      handlers: routeHandlers(services),
      port: options.port ?? 8080,
      webDir: web,
      logger,
      allowedHosts: config.ALLOWED_HOSTS,
      webConfig: {
        firebase: { apiKey: LOCAL_WEB_API_KEY, authDomain: '127.0.0.1', projectId },
        authEmulatorUrl: `http://${auth.host}`,
        vapidKey: null,
        // Only shows the Storage Tester link; the API decides who is admin.
        adminEmail: config.ADMIN_EMAILS[0] ?? null,
      },
    });
    cleanups.push(() => server.close());

    let stopping: Promise<void> | undefined;
    return {
      url: server.url,
      port: server.port,
      authEmulatorHost: auth.host,
      projectId,
      dataDir,
      services,
      signUp: (email, password, displayName) => auth.signUp(email, password, displayName),
      signIn: (email, password) => auth.signIn(email, password),
      idle: () => queue.drain(),
      // Cleanups run in reverse: the server stops taking requests, the queue drops what has not
      // started (retries waiting for their delay too) and lets the running scan finish, then the rest stops.
      stop: () => (stopping ??= cleanUp()),
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
