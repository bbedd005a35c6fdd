/**
 * Soak run (`npm run bench:soak`), printed figures, loopback only, bounded in time. On each table
 * store (Azurite, then dynalite): 20 users upload 200 receipts at once over HTTP to the local server,
 * and delete every tenth one 0–100 ms after it is accepted, while the run kills the server process
 * (API, queue and worker: SIGKILL) and, separately, the table store process (dynalite: SIGKILL;
 * Azurite: SIGINT, see below) at random moments and starts them again. Then it waits for the queue to settle and prints: scans accepted,
 * analysed, failed with a reason, lost, analysed twice, resurrected after delete, stuck (a receipt
 * that cannot be edited with the etag the reports give, after a reload), upload latency and
 * receipts per minute. Besides the kills, a share of the server's table and blob calls fail at
 * random (SOAK_WRITE_FAULTS, default 0.02; half before the call, half after it). Analysis is the tests' fake analyzer with a 50–250 ms delay, not OCR.
 *
 * SOAK_BACKENDS=azure|dynamodb runs one store; SOAK_USERS, SOAK_UPLOADS_PER_USER change the load.
 * Exits 1 when anything was lost, analysed twice or resurrected.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppData, QueueEntry } from '@receipts/core';
import { azuriteConnectionString } from '@receipts/store-azure';
import { azuriteTableScript } from '../dev/src/azurite';
import { startAuthEmulator, type AuthEmulator } from '../dev/src/firebase-auth-emulator';
import { freeLoopbackPort } from '../dev/src/free-port';
import { dataUrlOf, fakeReceiptImage, type FakeReceipt } from '../packages/core/test/support/fakes';
import pRetry from 'p-retry';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const USERS = envInt('SOAK_USERS', 20);
const UPLOADS_PER_USER = envInt('SOAK_UPLOADS_PER_USER', 10);
const DELETE_EVERY = 10;
/** Share of the server's table and blob calls that fail, half before the call and half after it. */
const WRITE_FAULTS = Number(process.env.SOAK_WRITE_FAULTS ?? 0.02);
/** How long the chaos may last at most, and how long the queue then has to settle. */
const CHAOS_MAX_MS = 120_000;
const SETTLE_MAX_MS = 150_000;
const BACKENDS = (process.env.SOAK_BACKENDS ?? 'azure,dynamodb')
  .split(',')
  .map((b) => b.trim())
  .filter((b): b is 'azure' | 'dynamodb' => b === 'azure' || b === 'dynamodb');

const HERE = dirname(fileURLToPath(import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const between = (min: number, max: number) => min + Math.random() * (max - min);
const say = (line: string) => console.log(line);

/** A process the run can kill and start again; its output lines go to `onLine`. */
class Restartable {
  private child: ChildProcess | undefined;
  kills = 0;
  constructor(
    private readonly name: string,
    /** How it is killed: SIGKILL, or a signal it may still save its data on (see Azurite below). */
    private readonly killSignal: 'SIGKILL' | 'SIGINT',
    private readonly command: () => { args: string[]; env?: NodeJS.ProcessEnv; ready: RegExp | number },
    private readonly onLine: (line: string) => void = () => {},
  ) {}

  /**
   * Starts the process and waits until it is ready. A start that fails (the server starting while
   * the table store is down exits at once) is tried again, for up to 90 s.
   */
  async start(): Promise<void> {
    let lastLines: string[] = [];
    try {
      await pRetry(
        async () => {
          // A start that hangs (say, on a request to a store killed mid-way) is killed after 30 s.
          const outcome = await this.startOnce(Date.now() + 30_000);
          if (outcome !== true) {
            lastLines = outcome;
            throw new Error(`${this.name} did not start`);
          }
        },
        { retries: Number.POSITIVE_INFINITY, factor: 1, minTimeout: 500, maxRetryTime: 90_000 },
      );
    } catch {
      throw new Error(`${this.name} did not start in 90 s. Its last output:\n${lastLines.join('\n')}`);
    }
  }

  private async startOnce(deadline: number): Promise<true | string[]> {
    const { args, env, ready } = this.command();
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    this.child = child;
    const recent: string[] = [];
    let buffered = '';
    let seenReady = false;
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (typeof ready !== 'number' && ready.test(line)) seenReady = true;
        recent.push(line);
        if (recent.length > 20) recent.shift();
        this.onLine(line);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    while (!(typeof ready === 'number' ? await accepts(ready) : seenReady)) {
      if (child.exitCode !== null || child.signalCode !== null) return recent;
      if (Date.now() > deadline) {
        await this.kill();
        return recent;
      }
      await sleep(50);
    }
    return true;
  }

  /** Kills it at once, mid-request, without waiting for what it is doing. */
  async kill(signal: 'SIGKILL' | 'SIGINT' = this.killSignal): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await Promise.race([exited, sleep(10_000)]);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    this.kills += 1;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGINT');
    await Promise.race([exited, sleep(10_000)]);
    if (child.exitCode === null && child.signalCode === null) await this.kill('SIGKILL');
  }
}

async function accepts(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

interface Upload {
  user: number;
  fileName: string;
  receipt: FakeReceipt;
  deleted: boolean;
  /** A delete was sent and got no answer that said it was done. */
  deleteUnconfirmed: boolean;
  accepted: boolean;
  latencyMs: number | null;
  attempts: number;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function soak(backend: 'azure' | 'dynamodb', auth: AuthEmulator, root: string) {
  const dataDir = join(root, backend);
  await mkdir(dataDir, { recursive: true });
  const storePort = await freeLoopbackPort();
  const appPort = await freeLoopbackPort();
  const base = `http://127.0.0.1:${appPort}`;

  const storeLocation = join(dataDir, 'store');
  await mkdir(storeLocation, { recursive: true });
  // dynalite writes each item to LevelDB's log at once, so SIGKILL loses nothing it acknowledged.
  // Azurite keeps its tables in memory and saves them every few seconds and on SIGINT: SIGKILL
  // would lose writes it had acknowledged, which no real table store does, so it gets SIGINT (an
  // outage of a second or two, requests cut off mid-way, but no lost acknowledged writes).
  const store = new Restartable(`${backend} store`, backend === 'azure' ? 'SIGINT' : 'SIGKILL', () =>
    backend === 'azure'
      ? {
          args: [
            azuriteTableScript(),
            '--tableHost',
            '127.0.0.1',
            '--tablePort',
            String(storePort),
            '--location',
            storeLocation,
            '--skipApiVersionCheck',
            '--loose',
            '--disableProductStyleUrl',
            '--disableTelemetry',
            '--silent',
          ],
          ready: storePort,
        }
      : {
          args: ['--import', 'tsx', join(HERE, 'soak/store-process.ts'), String(storePort), storeLocation],
          ready: /SOAK_READY/,
        },
  );
  const storeAddress =
    backend === 'azure' ? azuriteConnectionString(storePort) : `http://127.0.0.1:${storePort}`;

  const analysedLog = new Map<string, number>();
  const server = new Restartable(
    'local server',
    'SIGKILL',
    () => ({
      args: ['--import', 'tsx', join(HERE, 'soak/server-process.ts')],
      env: {
        SOAK_BACKEND: backend,
        SOAK_PORT: String(appPort),
        SOAK_DATA_DIR: join(dataDir, 'app'),
        SOAK_AUTH_HOST: auth.host,
        SOAK_STORE: storeAddress,
        SOAK_WRITE_FAULTS: String(WRITE_FAULTS),
      },
      ready: /SOAK_READY/,
    }),
    (line) => {
      if (!line.includes('"scan analysed"')) return;
      try {
        const entry = JSON.parse(line) as { userId?: string; fileName?: string };
        const key = `${entry.userId}/${entry.fileName}`;
        analysedLog.set(key, (analysedLog.get(key) ?? 0) + 1);
      } catch {
        // Not a whole JSON line (the process was killed while writing it).
      }
    },
  );

  await store.start();
  await server.start();
  try {
    return await drive();
  } finally {
    await server.stop();
    await store.stop();
  }

  async function drive() {
    const sessions = await Promise.all(
      Array.from({ length: USERS }, (_, i) =>
        auth.signUp(`soak-${backend}-${i}@example.com`, 'correct-horse-battery', `Soak ${i}`),
      ),
    );
    const call = async (user: number, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${sessions[user]!.idToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text, retryAfter: response.headers.get('retry-after') };
    };
    // Users sign in once (POST /api/login), as the web app does, while the stack is up.
    for (let i = 0; i < USERS; i++) {
      await call(i, 'POST', '/api/login', {
        user_id: sessions[i]!.localId,
        user_email: `soak-${backend}-${i}@example.com`,
        user_name: `Soak ${i}`,
      });
    }

    const uploads: Upload[] = [];
    for (let user = 0; user < USERS; user++) {
      for (let n = 0; n < UPLOADS_PER_USER; n++) {
        const index = user * UPLOADS_PER_USER + n;
        uploads.push({
          user,
          fileName: `${1_700_000_000_000 + index}-soak.jpg`,
          receipt: {
            // Every upload is its own photo: the same bytes twice would be refused as a duplicate.
            photo: `soak-${index}`,
            merchant: `Soak Shop ${index % 7}`,
            postal: '1050',
            date: '2024-03-01',
            total: 3 + (index % 5),
            items: [
              { description: 'BREAD', price: 1 },
              { description: 'MILK', price: 2 + (index % 5) },
            ],
          },
          deleted: false,
          deleteUnconfirmed: false,
          accepted: false,
          latencyMs: null,
          attempts: 0,
        });
      }
    }

    // Chaos: the server and, separately, the table store die at random moments and come back.
    let chaos = true;
    const chaosDone = (async () => {
      const serverChaos = (async () => {
        while (chaos) {
          await sleep(between(5000, 12000));
          if (!chaos) break;
          await server.kill();
          await sleep(between(200, 1000));
          await server.start();
        }
      })();
      const storeChaos = (async () => {
        while (chaos) {
          await sleep(between(8000, 15000));
          if (!chaos) break;
          await store.kill();
          await sleep(between(500, 2000));
          await store.start();
        }
      })();
      await Promise.all([serverChaos, storeChaos]);
    })();
    const chaosTimer = setTimeout(() => (chaos = false), CHAOS_MAX_MS);
    /**
     * A person keeps trying while the app is down, and gives up a minute after it is back for good
     * (the last kill's restart done): on a loaded machine a restart alone can take most of a minute.
     */
    let backForGoodAt: number | undefined;
    void chaosDone.then(() => (backForGoodAt = Date.now()));
    const stillTrying = () => backForGoodAt === undefined || Date.now() - backForGoodAt < 60_000;

    /** Answers other than success, by kind, with one example message each. */
    const answers = new Map<string, { count: number; example: string }>();
    const note = (kind: string, body = '') => {
      const seen = answers.get(kind) ?? { count: 0, example: body.slice(0, 160) };
      seen.count += 1;
      answers.set(kind, seen);
    };
    const started = Date.now();
    const progress = setInterval(() => {
      say(
        `  ${((Date.now() - started) / 1000).toFixed(0)} s: ${uploads.filter((u) => u.accepted).length} accepted, ` +
          `${analysedLog.size} analysed, kills: server ${server.kills}, store ${store.kills}`,
      );
    }, 15_000);
    const uploadOne = async (u: Upload) => {
      const imgSrc = dataUrlOf(fakeReceiptImage(u.receipt));
      const t0 = Date.now();
      const userId = sessions[u.user]!.localId;
      while (stillTrying()) {
        u.attempts += 1;
        try {
          const answer = await call(u.user, 'POST', '/api/upload', { userId, fileName: u.fileName, imgSrc });
          // 409 after a retry: an earlier attempt got in before its answer was lost.
          if (answer.status === 202 || (answer.status === 409 && u.attempts > 1)) {
            u.accepted = true;
            u.latencyMs = Date.now() - t0;
            return;
          }
          note(`upload ${answer.status}`, answer.body);
          if (answer.status === 429) await sleep(1000 * Number(answer.retryAfter ?? 1));
          else await sleep(between(200, 500));
        } catch {
          note('upload: no answer (server down)');
          await sleep(between(200, 500)); // the server is down: try again
        }
      }
    };
    const deleteOne = async (u: Upload) => {
      await sleep(between(0, 100));
      const userId = sessions[u.user]!.localId;
      const query = new URLSearchParams({
        userId,
        receiptId: `${userId}~${u.fileName}`,
        blobName: u.fileName,
      });
      // A person deleting tries for a minute at least, however late the upload got in.
      const t0 = Date.now();
      while (stillTrying() || Date.now() - t0 < 60_000) {
        try {
          const answer = await call(u.user, 'DELETE', `/api/deleteReceiptData?${query}`);
          // 404 after acceptance: nothing of it is left, as an earlier attempt whose answer was
          // cut off had already deleted it.
          if (answer.status === 200 || answer.status === 404) {
            if (answer.status === 404) note('delete 404 (already gone)');
            u.deleted = true;
            return;
          }
          // 409: a worker holds the scan; 5xx: the store is down. Either way, again shortly.
          note(`delete ${answer.status}`, answer.body);
        } catch {
          note('delete: no answer (server down)');
        }
        await sleep(between(200, 500));
      }
      u.deleteUnconfirmed = true;
    };
    await Promise.all(
      uploads.map(async (u, i) => {
        await uploadOne(u);
        if (u.accepted && i % DELETE_EVERY === DELETE_EVERY - 1) await deleteOne(u);
      }),
    );
    const uploadsDoneMs = Date.now() - started;
    // Let the chaos go on while the queue is worked off, up to its bound.
    const settled = async () => {
      for (let user = 0; user < USERS; user++) {
        const answer = await call(user, 'GET', `/api/listQueue?userId=${sessions[user]!.localId}`);
        if (answer.status !== 200) return false;
        const entries = JSON.parse(answer.body) as QueueEntry[];
        if (entries.some((e) => e.status !== 'Failed')) return false;
      }
      return true;
    };
    // Each process is killed twice at least, even when the queue is worked off sooner.
    while (chaos) {
      const done = server.kills >= 2 && store.kills >= 2 && (await settled().catch(() => false));
      if (done) break;
      await sleep(1000);
    }
    chaos = false;
    clearTimeout(chaosTimer);
    await chaosDone;
    const settleStart = Date.now();
    while (Date.now() - settleStart < SETTLE_MAX_MS && !(await settled().catch(() => false)))
      await sleep(1000);
    const workedOffMs = Date.now() - started;
    clearInterval(progress);

    // What each user has now.
    const receiptsOf = new Map<string, { items: number }>();
    const failedOf = new Map<string, string>();
    const pendingOf = new Set<string>();
    /** A read the person repeats until it answers (a write fault may fail it). */
    const read = async (user: number, path: string) => {
      for (let tries = 1; ; tries++) {
        const answer = await call(user, 'GET', path).catch(() => ({ status: 0, body: '' }));
        if (answer.status === 200 || tries >= 20) return answer.body;
        await sleep(200);
      }
    };
    for (let user = 0; user < USERS; user++) {
      const userId = sessions[user]!.localId;
      const data = JSON.parse(await read(user, `/api/getAppData?userId=${userId}`)) as AppData;
      for (const r of data.reportReceipts) {
        const items = data.reportProductItems.filter((item) => item.receipt_id === r.receipt_id).length;
        receiptsOf.set(r.receipt_id, { items });
      }
      const queue = JSON.parse(await read(user, `/api/listQueue?userId=${userId}`)) as QueueEntry[];
      for (const e of queue) {
        if (e.status === 'Failed') failedOf.set(`${userId}~${e.fileName}`, e.reason ?? '');
        else pendingOf.add(`${userId}~${e.fileName}`);
      }
    }

    let analysed = 0;
    let failedWithReason = 0;
    const reasons = new Map<string, number>();
    let failedWithoutReason = 0;
    let lost = 0;
    const lostExamples: string[] = [];
    let resurrected = 0;
    let duplicated = 0;
    for (const u of uploads) {
      const userId = sessions[u.user]!.localId;
      const id = `${userId}~${u.fileName}`;
      if (u.deleted) {
        if (receiptsOf.has(id) || failedOf.has(id) || pendingOf.has(id)) resurrected += 1;
        continue;
      }
      if (!u.accepted) continue;
      const receipt = receiptsOf.get(id);
      if (receipt) {
        analysed += 1;
        if (receipt.items !== u.receipt.items.length) duplicated += 1;
      } else if (failedOf.has(id)) {
        const reason = failedOf.get(id);
        if (reason) {
          failedWithReason += 1;
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        } else failedWithoutReason += 1;
      } else {
        lost += 1;
        if (lostExamples.length < 3)
          lostExamples.push(
            `${id}${u.deleteUnconfirmed ? ' (its delete was sent and never confirmed)' : ''}`,
          );
      }
    }
    // Stuck: a receipt the person cannot edit with the etag the reports give, even after reloading
    // them and trying again (each try may meet a write fault of its own).
    let stuck = 0;
    const stuckExamples: string[] = [];
    for (let user = 0; user < USERS; user++) {
      const userId = sessions[user]!.localId;
      const data = JSON.parse(await read(user, `/api/getAppData?userId=${userId}`)) as AppData;
      for (const r of data.reportReceipts) {
        let last = '';
        let edited = false;
        for (let tries = 0; tries < 5 && !edited; tries++) {
          const now = JSON.parse(await read(user, `/api/getAppData?userId=${userId}`)) as AppData;
          const etag = now.reportReceipts.find((x) => x.receipt_id === r.receipt_id)?.etag ?? '';
          const answer = await call(user, 'POST', '/api/markReviewed', {
            userId,
            receiptId: r.receipt_id,
            etag,
          }).catch(() => ({ status: 0, body: 'no answer' }));
          edited = answer.status === 200;
          last = `${answer.status} ${answer.body.slice(0, 120)}`;
        }
        if (!edited) {
          stuck += 1;
          if (stuckExamples.length < 3) stuckExamples.push(`${r.receipt_id}: ${last}`);
        }
      }
    }
    const analysedTwice =
      [...analysedLog.entries()]
        .filter(([key]) => uploads.some((u) => key.endsWith(`/${u.fileName}`)))
        .filter(([, count]) => count > 1).length + duplicated;
    const latencies = uploads.filter((u) => u.latencyMs !== null).map((u) => u.latencyMs!);

    return {
      answers,
      reasons,
      backend,
      accepted: uploads.filter((u) => u.accepted).length,
      notAccepted: uploads.filter((u) => !u.accepted).length,
      deleted: uploads.filter((u) => u.deleted).length,
      analysed,
      failedWithReason,
      failedWithoutReason,
      lost: lost + failedWithoutReason,
      analysedTwice,
      resurrected,
      stuck,
      stuckExamples,
      lostExamples,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      retriedUploads: uploads.filter((u) => u.attempts > 1).length,
      serverKills: server.kills,
      storeKills: store.kills,
      uploadsDoneMs,
      workedOffMs,
      perMinute: (analysed / workedOffMs) * 60_000,
    };
  }
}

async function main() {
  const root = await mkdtemp(join(tmpdir(), 'receipts-soak-'));
  const auth = await startAuthEmulator({ dataDir: join(root, 'auth'), silent: true });
  let failed = false;
  try {
    say(
      `Soak: ${USERS} users × ${UPLOADS_PER_USER} uploads at once over HTTP, every ${DELETE_EVERY}th deleted 0–100 ms after acceptance;`,
    );
    say(
      'the server process (API + worker) is SIGKILLed and the table store stopped (dynalite: SIGKILL, Azurite: SIGINT) at random moments, then restarted;',
    );
    say(
      `and ${(WRITE_FAULTS * 100).toFixed(1)} % of the server's table and blob calls fail (half before the call, half after it, the answer lost).`,
    );
    for (const backend of BACKENDS) {
      const r = await soak(backend, auth, root);
      say('');
      say(`== ${r.backend === 'azure' ? 'Azure Tables (Azurite)' : 'DynamoDB (dynalite)'} ==`);
      say(`  kills: server ${r.serverKills}, table store ${r.storeKills}`);
      for (const [kind, { count, example }] of [...r.answers.entries()].sort()) {
        say(`  answered ${kind}: ${count}×${example ? ` (e.g. ${example})` : ''}`);
      }
      say(
        `  scans accepted:              ${r.accepted} of ${r.accepted + r.notAccepted} (${r.retriedUploads} needed a retry)`,
      );
      say(`  deleted after acceptance:    ${r.deleted}`);
      say(`  analysed:                    ${r.analysed}`);
      say(`  failed with a reason:        ${r.failedWithReason}`);
      for (const [reason, count] of r.reasons) say(`    ${count}× "${reason}"`);
      say(`  lost:                        ${r.lost}`);
      for (const example of r.lostExamples) say(`    e.g. ${example}`);
      say(`  analysed twice:              ${r.analysedTwice}`);
      say(`  resurrected after delete:    ${r.resurrected}`);
      say(`  stuck (not editable):        ${r.stuck}`);
      for (const example of r.stuckExamples) say(`    e.g. ${example}`);
      say(
        `  upload latency p50 / p99:    ${r.p50.toFixed(0)} ms / ${r.p99.toFixed(0)} ms (first try to acceptance, retries included)`,
      );
      say(
        `  receipts per minute:         ${r.perMinute.toFixed(0)} (all uploads in ${(r.uploadsDoneMs / 1000).toFixed(1)} s, worked off in ${(r.workedOffMs / 1000).toFixed(1)} s)`,
      );
      if (r.lost > 0 || r.analysedTwice > 0 || r.resurrected > 0 || r.stuck > 0 || r.notAccepted > 0)
        failed = true;
    }
  } finally {
    await auth.stop();
    await rm(resolve(root), { recursive: true, force: true, maxRetries: 5 }).catch(() => undefined);
  }
  if (failed) {
    say('');
    say('FAILED: something was lost, analysed twice, resurrected, stuck or never accepted.');
    process.exitCode = 1;
  }
}

await main();
