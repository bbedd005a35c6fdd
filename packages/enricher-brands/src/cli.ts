import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { buildBrands, checkDataset, type SourceFile } from './build-data';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', 'data');

/** The source files of the brands dataset, in name order. */
export function readSources(dataDir = DATA): Array<{ name: string; data: SourceFile }> {
  const dir = join(dataDir, 'sources');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((name) => ({ name, data: JSON.parse(readFileSync(join(dir, name), 'utf8')) as SourceFile }));
}

/** The brands file as the build writes it (two-space JSON, one brand a line). */
export function formatBrands(file: SourceFile): string {
  const lines = [
    '{',
    `  "title": ${JSON.stringify(file.title)},`,
    `  "description": ${JSON.stringify(file.description)},`,
    '  "groups": [',
  ];
  file.groups.forEach((g, i) => {
    const { brands = [], ...head } = g;
    lines.push(`    {`);
    for (const [k, v] of Object.entries(head))
      lines.push(`      ${JSON.stringify(k)}: ${JSON.stringify(v)},`);
    lines.push('      "brands": [');
    brands.forEach((b, j) => lines.push(`        ${JSON.stringify(b)}${j < brands.length - 1 ? ',' : ''}`));
    lines.push('      ]', `    }${i < file.groups.length - 1 ? ',' : ''}`);
  });
  lines.push('  ]', '}', '');
  return lines.join('\n');
}

/** Formats the text as the repository's Prettier settings would, when Prettier is installed. */
async function prettified(text: string, file: string): Promise<string> {
  try {
    const prettier = await import('prettier');
    const options = (await prettier.resolveConfig(file)) ?? {};
    return await prettier.format(text, { ...options, parser: 'json' });
  } catch {
    return text;
  }
}

/**
 * `npm run brands:build` checks the sources and writes data/brands.json; `npm run brands:check` only
 * checks, and fails when data/brands.json does not hold what the sources build.
 * @returns the exit code
 */
export async function runCli(
  args: readonly string[],
  out = console.log,
  err = console.error,
): Promise<number> {
  const [command] = args;
  if (command !== 'build' && command !== 'check') {
    err('Usage: brands build | check');
    return 2;
  }
  const built = buildBrands(readSources());
  const merchants = JSON.parse(readFileSync(join(DATA, 'merchants.json'), 'utf8')) as SourceFile;
  const problems = checkDataset(built, merchants);
  for (const p of problems) err(p);
  if (problems.length > 0) {
    err(`${problems.length} problem(s): data/brands.json not written.`);
    return 1;
  }
  const target = join(DATA, 'brands.json');
  const brandCount = built.groups.reduce((n, g) => n + (g.brands?.length ?? 0), 0);
  if (command === 'check') {
    let current: unknown = null;
    try {
      current = JSON.parse(readFileSync(target, 'utf8'));
    } catch {
      current = null;
    }
    if (!isDeepStrictEqual(current, JSON.parse(JSON.stringify(built)))) {
      err('data/brands.json is not what data/sources builds: run `npm run brands:build`.');
      return 1;
    }
    out(`${brandCount} brands of ${new Set(built.groups.map((g) => g.owning_corporation)).size} owners: OK`);
    return 0;
  }
  writeFileSync(target, await prettified(formatBrands(built), target));
  out(
    `data/brands.json: ${brandCount} brands of ${new Set(built.groups.map((g) => g.owning_corporation)).size} owners`,
  );
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  process.exitCode = await runCli(process.argv.slice(2));
