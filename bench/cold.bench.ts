/**
 * Cold-start figures of every function (`npm run bench:cold`): each bundle is built as the CDK
 * construct builds it (buildFunction of infra/lib/bundling.ts), then for each function it prints
 *  - the size of the code loaded at start (minified, without source maps: index.mjs and the chunks it
 *    imports statically) and of all its code (with the chunks loaded on first use), and
 *  - the time to import it in a fresh Node process (median of BENCH_COLD_RUNS runs, default 7), with
 *    `--enable-source-maps` as on Lambda and the AWS SDK resolved from node_modules as the Lambda
 *    runtime provides it,
 * beside the previous run's figures, kept in .bench/cold.json (git-ignored).
 *
 * STORAGE_BACKEND=azure builds for an Azure Tables deployment (default dynamodb, as the CDK app).
 * `-- --docs` also writes the table to docs/benchmarks/cold-start.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { appFunctions, BUNDLE_ENTRY, buildFunction, REPO_ROOT } from '../infra/lib/bundling';

const OUT = join(REPO_ROOT, '.bench');
const FIGURES = join(OUT, 'cold.json');
const DOCS = join(REPO_ROOT, 'docs/benchmarks/cold-start.md');
const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 7);
const backend = process.env.STORAGE_BACKEND === 'azure' ? 'azure' : 'dynamodb';

interface Figures {
  /** Bytes of the code loaded at start. */
  bytes: number;
  /** Bytes of all the code, chunks loaded on first use included. */
  totalBytes?: number;
  /** Median milliseconds to import the bundle in a fresh process. */
  importMs: number;
}
interface Run {
  at: string;
  commit: string;
  backend: string;
  functions: Record<string, Figures>;
}

/** Milliseconds from the start of a dynamic import of `file` to its end, in a new Node process. */
function importOnce(file: string): number {
  const script =
    'const t = performance.now(); await import(process.argv[1]); ' +
    'process.stdout.write(String(performance.now() - t));';
  const run = spawnSync(
    process.execPath,
    ['--enable-source-maps', '--input-type=module', '-e', script, pathToFileURL(file).href],
    {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', AWS_REGION: 'eu-west-1' },
      timeout: 60_000,
    },
  );
  const ms = Number(run.stdout);
  if (run.status !== 0 || !Number.isFinite(ms)) throw new Error(`${file} did not import: ${run.stderr}`);
  return ms;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const delta = (now: number, before: number | undefined, format: (n: number) => string) => {
  if (before === undefined) return '';
  const change = now - before;
  const percent = before === 0 ? 0 : (change / before) * 100;
  return `${change >= 0 ? '+' : '-'}${format(Math.abs(change))} (${percent >= 0 ? '+' : ''}${percent.toFixed(0)} %)`;
};

function commitOf(): string {
  const run = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' });
  const dirty = spawnSync('git', ['status', '--porcelain'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  }).stdout.trim();
  return `${run.stdout.trim()}${dirty ? '+changes' : ''}`;
}

async function main(): Promise<void> {
  const previous: Run | undefined = existsSync(FIGURES)
    ? (JSON.parse(readFileSync(FIGURES, 'utf8')) as Run)
    : undefined;
  const functions = appFunctions(backend);
  const buildDir = join(OUT, 'cold');
  rmSync(buildDir, { recursive: true, force: true });
  const files = new Map<string, string>();
  const sizes = new Map<string, { startBytes: number; totalBytes: number }>();
  for (const fn of functions) {
    const outdir = join(buildDir, fn.name);
    sizes.set(fn.name, buildFunction(fn.handler, fn.bundling.externalModules, outdir));
    files.set(fn.name, join(outdir, BUNDLE_ENTRY));
  }

  const current: Run = { at: new Date().toISOString(), commit: commitOf(), backend, functions: {} };
  // Runs interleaved across functions, so a busy moment of the machine weighs on all of them alike.
  const times = new Map<string, number[]>(functions.map((fn) => [fn.name, []]));
  for (let run = 0; run < RUNS; run++) {
    for (const fn of functions) times.get(fn.name)!.push(importOnce(files.get(fn.name)!));
  }
  for (const fn of functions) {
    current.functions[fn.name] = {
      bytes: sizes.get(fn.name)!.startBytes,
      totalBytes: sizes.get(fn.name)!.totalBytes,
      importMs: median(times.get(fn.name)!),
    };
  }

  const rows = functions.map((fn) => {
    const now = current.functions[fn.name]!;
    const before = previous?.functions[fn.name];
    return [
      fn.name,
      kb(now.bytes),
      before ? kb(before.bytes) : '-',
      delta(now.bytes, before?.bytes, kb),
      kb(now.totalBytes ?? now.bytes),
      ms(now.importMs),
      before ? ms(before.importMs) : '-',
      delta(now.importMs, before?.importMs, ms),
    ];
  });
  const all = Object.values(current.functions);
  const before = previous ? Object.values(previous.functions) : [];
  const summary = [
    'all (median)',
    kb(median(all.map((f) => f.bytes))),
    before.length ? kb(median(before.map((f) => f.bytes))) : '-',
    '',
    kb(median(all.map((f) => f.totalBytes ?? f.bytes))),
    ms(median(all.map((f) => f.importMs))),
    before.length ? ms(median(before.map((f) => f.importMs))) : '-',
    '',
  ];
  const header = ['function', 'at start', 'before', 'Δ', 'with chunks', 'import', 'before', 'Δ'];
  const table = [header, ...rows, summary];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  console.log(
    `cold start, ${backend} backend, ${RUNS} imports each (now ${current.commit}` +
      `${previous ? `, before ${previous.commit} of ${previous.at}` : ', no previous run'})`,
  );
  for (const row of table) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));

  mkdirSync(OUT, { recursive: true });
  writeFileSync(FIGURES, `${JSON.stringify(current, null, 2)}\n`);
  if (process.argv.includes('--docs')) {
    const markdown = [
      '# Cold start: bundle size and import time per function',
      '',
      `Written by \`npm run bench:cold -- --docs\` (${current.at.slice(0, 10)}, ${backend} backend, ` +
        `median of ${RUNS} imports in a fresh Node ${process.version} process each; "before" is the ` +
        `previous run, ${previous ? `commit ${previous.commit}` : 'none'}).`,
      '',
      `| ${header.join(' | ')} |`,
      `| ${header.map(() => '---').join(' | ')} |`,
      ...table.slice(1).map((row) => `| ${row.join(' | ')} |`),
      '',
    ].join('\n');
    mkdirSync(join(REPO_ROOT, 'docs/benchmarks'), { recursive: true });
    writeFileSync(DOCS, markdown);
    console.log(`written to ${DOCS}`);
  }
}

await main();
