/**
 * The local stack (API, in-process scan queue and worker) in a process of its own, so the soak run can
 * kill it (SIGKILL) at any moment and start it again on the same port and data folder. The table
 * store and the Auth emulator run elsewhere; analysis is the tests' fake analyzer with a delay, so the
 * run measures the pipeline, not OCR. Settings come from SOAK_* variables set by soak.bench.ts.
 */
import type { AnalysisResult, Analyzer } from '@receipts/core';
import { startLocalStack } from '../../dev/src/stack';
import { FakeAnalyzer } from '../../packages/core/test/support/fakes';
import { failingAtRandom } from '../../test/support/fault-ports';

const env = process.env;
const fake = new FakeAnalyzer();
const minMs = Number(env.SOAK_ANALYSIS_MIN_MS ?? 50);
const spreadMs = Number(env.SOAK_ANALYSIS_SPREAD_MS ?? 200);
/** The fake analyzer, taking some time like a real one, so kills land mid-analysis. */
const slowFake: Analyzer = {
  name: 'fake',
  async analyze(image: Uint8Array, mimeType: string): Promise<AnalysisResult> {
    await new Promise((resolve) => setTimeout(resolve, minMs + Math.random() * spreadMs));
    void mimeType;
    return fake.analyze(image);
  },
};

const backend = env.SOAK_BACKEND === 'dynamodb' ? 'dynamodb' : 'azure';
/** Share of the API's and the worker's table and blob calls that fail (before or after the call). */
const faultShare = Number(env.SOAK_WRITE_FAULTS ?? 0);
await startLocalStack({
  port: Number(env.SOAK_PORT),
  dataDir: env.SOAK_DATA_DIR!,
  authEmulatorHost: env.SOAK_AUTH_HOST!,
  storageBackend: backend,
  ...(backend === 'azure'
    ? { azureConnectionString: env.SOAK_STORE! }
    : { dynamodbEndpoint: env.SOAK_STORE!, dynamodbTable: 'receipts' }),
  analyzer: slowFake,
  enricher: null,
  scanConcurrency: 4,
  retryDelaySeconds: () => 1,
  // A delivery that could not record its failure is made again within the run, as SQS would after
  // its visibility timeout: both shortened, the lease still far above an attempt (well under 1 s).
  claimLeaseMs: 20_000,
  visibilityTimeoutSeconds: 25,
  quotas: { uploadsPerDay: 100_000, pendingScans: 10_000, storedMb: 100_000 },
  logLevel: 'info',
  quiet: true,
  ...(faultShare > 0
    ? {
        wrapPorts: ({ store, blobs }) => ({
          store: failingAtRandom(store, faultShare),
          blobs: failingAtRandom(blobs, faultShare),
        }),
      }
    : {}),
});
process.stdout.write('SOAK_READY\n');
