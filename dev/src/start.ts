import { startLocalStack } from './stack';

/**
 * `npm start`: the whole app on one machine, offline. Settings: PORT (8080), DATA_DIR (.data),
 * FIREBASE_AUTH_EMULATOR_HOST (127.0.0.1:9099), ADMIN_EMAILS, ANALYZER (ocr), STORAGE_BACKEND (azure:
 * Azurite, or AZURE_TABLES_CONNECTION_STRING; dynamodb: dynalite, or DYNAMODB_ENDPOINT and
 * DYNAMODB_TABLE), FIREBASE_PROJECT_ID (demo-receipts), MAX_SCAN_ATTEMPTS, LOG_LEVEL. See the README.
 */
async function main(): Promise<void> {
  const env = process.env;
  const authHost = env.FIREBASE_AUTH_EMULATOR_HOST?.trim() || '127.0.0.1:9099';
  const authPort = Number(authHost.split(':').pop());
  const port = env.PORT ? Number(env.PORT) : 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, not "${env.PORT}".`);
  if (!Number.isInteger(authPort))
    throw new Error(`FIREBASE_AUTH_EMULATOR_HOST must be host:port, not "${authHost}".`);
  const backend = env.STORAGE_BACKEND === 'dynamodb' ? 'dynamodb' : 'azure';
  const analyzer = env.ANALYZER === 'textract' ? 'textract' : 'ocr';
  const logLevel = (['debug', 'info', 'warn', 'error'] as const).find((l) => l === env.LOG_LEVEL) ?? 'info';

  console.log('Starting the local stack (table store, Auth emulator, API, scan worker, web app)…');
  const stack = await startLocalStack({
    port,
    dataDir: env.DATA_DIR?.trim() || '.data',
    authEmulatorPort: authPort,
    adminEmails: (env.ADMIN_EMAILS ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean),
    analyzer,
    storageBackend: backend,
    ...(env.AZURE_TABLES_CONNECTION_STRING
      ? { azureConnectionString: env.AZURE_TABLES_CONNECTION_STRING }
      : {}),
    ...(env.DYNAMODB_ENDPOINT ? { dynamodbEndpoint: env.DYNAMODB_ENDPOINT } : {}),
    ...(env.DYNAMODB_TABLE ? { dynamodbTable: env.DYNAMODB_TABLE } : {}),
    buildWeb: true,
    logLevel,
    quiet: true,
    ...(env.FIREBASE_PROJECT_ID ? { projectId: env.FIREBASE_PROJECT_ID } : {}),
    ...(env.MAX_SCAN_ATTEMPTS ? { maxScanAttempts: Number(env.MAX_SCAN_ATTEMPTS) } : {}),
  });
  console.log(`\nReceipt Tracker is running at ${stack.url}`);
  console.log(`Firebase Auth emulator: http://${stack.authEmulatorHost} (project ${stack.projectId})`);
  console.log(`Data: ${stack.dataDir}. Stop with Ctrl-C.\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping (saving accounts and tables)…`);
    stack
      .stop()
      .then(() => {
        console.log('Stopped.');
        process.exit(0);
      })
      .catch((error: unknown) => {
        console.error('Stopping failed:', error instanceof Error ? error.message : error);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
