import { REQUIRED_TABLES, silentLogger, createReportCache, type ScanJob } from '../../src';
import { processScan, type ScanResult, type ScanWorkerDeps } from '../../src/use-cases/process-scan';
import { FakeAnalyzer, MemoryBlobStore, RecordingNotifier, RecordingQueue } from './fakes';
import { MemoryTableStore } from './memory-table-store';

/** Everything a use case needs, in memory, with the tables set up. */
export async function createWorld() {
  const store = new MemoryTableStore();
  for (const table of REQUIRED_TABLES) await store.createTable(table);
  const blobs = new MemoryBlobStore();
  const queue = new RecordingQueue();
  const analyzer = new FakeAnalyzer();
  const notifier = new RecordingNotifier();
  let clock = Date.parse('2024-05-01T12:00:00Z');
  const now = () => new Date(clock);
  const deps = { store, blobs, queue, logger: silentLogger, reportCache: createReportCache(), now };
  const worker: ScanWorkerDeps = {
    ...deps,
    analyzer,
    notifier,
    maxAttempts: 3,
    retryDelaySeconds: (attempt) => attempt * 10,
  };
  /** Delivers every queued job to the worker (and the ones it queues again), in order. */
  async function drain(): Promise<ScanResult[]> {
    const results: ScanResult[] = [];
    while (queue.jobs.length > 0) {
      const { job } = queue.jobs.shift()!;
      results.push(await processScan(worker, job));
    }
    return results;
  }
  return {
    store,
    blobs,
    queue,
    analyzer,
    notifier,
    deps,
    worker,
    drain,
    deliver: (job: ScanJob) => processScan(worker, job),
    advance: (ms: number) => {
      clock += ms;
    },
  };
}
