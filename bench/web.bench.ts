/**
 * `npm run bench:web`: builds the web app and prints the size of the JavaScript the first page loads
 * (the entry script and every module it preloads, as listed in dist/index.html), raw and gzipped,
 * against the target. It prints; it does not fail a build.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WEB = join(ROOT, 'web');
const DIST = join(WEB, 'dist');
/** Gzipped JavaScript of the first page, in KB (1 KB = 1024 bytes). */
const TARGET_KB = 150;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The scripts index.html makes the browser fetch before the first render. */
function firstPageScripts(html: string): string[] {
  const files = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g))
    files.add(match[1]!);
  for (const match of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g))
    files.add(match[1]!);
  return [...files];
}

async function sizes(file: string): Promise<{ raw: number; gzip: number }> {
  const bytes = await readFile(file);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

async function main(): Promise<void> {
  const started = performance.now();
  await build({ configFile: join(WEB, 'vite.config.ts'), root: WEB, logLevel: 'warn' });
  const buildSeconds = (performance.now() - started) / 1000;

  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  const scripts = firstPageScripts(html);
  if (scripts.length === 0)
    throw new Error('dist/index.html loads no module script: is this the web app build?');

  console.log(`web build: ${buildSeconds.toFixed(1)} s`);
  console.log('\nJavaScript the first page loads (entry + modulepreload):');
  let raw = 0;
  let gzip = 0;
  for (const src of scripts) {
    const size = await sizes(join(DIST, src.replace(/^\//, '')));
    raw += size.raw;
    gzip += size.gzip;
    console.log(`  ${src.padEnd(48)} ${kb(size.raw).padStart(10)} raw ${kb(size.gzip).padStart(10)} gzip`);
  }
  console.log(`  ${'total'.padEnd(48)} ${kb(raw).padStart(10)} raw ${kb(gzip).padStart(10)} gzip`);

  // For context: everything else is fetched only when a screen that needs it is opened.
  const assets = join(DIST, 'assets');
  let allRaw = 0;
  let allGzip = 0;
  let count = 0;
  for (const name of await readdir(assets)) {
    if (!name.endsWith('.js') || !(await stat(join(assets, name))).isFile()) continue;
    const size = await sizes(join(assets, name));
    allRaw += size.raw;
    allGzip += size.gzip;
    count += 1;
  }
  console.log(
    `\nall ${count} JavaScript chunks: ${kb(allRaw)} raw, ${kb(allGzip)} gzip (the rest load per screen)`,
  );

  const within = gzip <= TARGET_KB * 1024;
  console.log(
    `\nfirst page: ${kb(gzip)} gzipped; target <= ${TARGET_KB} KB: ${within ? 'within target' : 'OVER TARGET'}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
