/**
 * `npm run eval -- [--analyzer ocr|textract] [--dir <folder> | --fixtures <folder>] [--split even|odd]
 *   [--out results.json] [--limit N] [--workers N]`
 *
 * Scores an analyzer against receipts with ground truth. Each receipt is `NNN.jpg` (or .jpeg, .png,
 * .webp) for `--analyzer ocr`, or a stored Textract AnalyzeExpense response `NNN.textract.json` for
 * `--analyzer textract`, beside its ground truth `NNN.json`: SROIE style (`{ "company", "date",
 * "address", "total" }`) or CORD style (`{ "items": [{ "description", "quantity", "unitPrice",
 * "amount" }], "subtotal", "tax", "serviceCharge", "total" }`). Nothing is sent over the network: OCR
 * runs locally and Textract responses are read from disk and mapped with `mapAnalyzeExpense`.
 *
 * Without `--dir` it scores the development sets under `--fixtures` (default
 * $RECEIPT_FIXTURES_DIR): `sroie/` and `de/` with OCR, `textract/doc-extract-bench/sroie` and
 * `textract/doc-extract-bench/cord` with the Textract mapping (only those of `--analyzer` when given).
 * The German set's truth (`{ "company": "aldi", "date", "total", "items_count" }`) names the chain by
 * a slug: the merchant read is right when, as lower-case letters only, it contains the slug or the
 * slug contains it.
 * `--engine tesseract|paddle|combined` picks the OCR engine (default `combined`, what the app runs).
 * `--flags` lists every receipt flagged "needs review" with its reasons and whether its total and
 * date were right.
 * `--split even|odd` scores only the receipts at even or odd positions of each folder in name order,
 * so rules fitted on one half can be checked on the other; without it every figure is printed for
 * the whole set and for each half.
 *
 * OCR readings are kept in `--cache` (default node_modules/.cache/receipt-eval; `--no-cache` reads
 * afresh): a rerun parses the stored readings again. Items are scored against our own labels
 * (tools/eval/labels/SET/ID.json) where a receipt has them, and every receipt is put through the
 * app's own review check (`assessReview`): the receipts flagged "needs review", the wrong totals or
 * dates not flagged ("silent") and the flagged receipts whose total and date were right ("false
 * alarms") are counted. The items read are enriched with brands as the app does (`enrichAnalysis`
 * with the brand dictionary) and, where the labels name brands, scored: brand precision (of the items
 * paired with a label and given a brand, the share with the label's brand), recall (of the labelled
 * items naming a brand, the share read and given it) and the share of all items read with a brand.
 *
 * It prints, per field, the share of receipts read exactly right; for CORD also the share with total
 * and tax both right and item precision, recall and F1 (items paired one to one; an item counts when
 * its description, quantity, unit price and amount all match); the median (and mean) seconds per
 * receipt; and every miss with what was expected and what was read. `--out` writes the per-receipt
 * results and the summaries as JSON.
 *
 * Normalisation before comparing (both sides alike; see `tools/src/eval/normalise.ts`):
 * - company, address, item description: Unicode NFKC, case-folded, every run of characters that are
 *   neither letters nor digits becomes one space, ends trimmed;
 * - date: read as a calendar date, day first when ambiguous (the SROIE truth is Malaysian), compared
 *   as `YYYY-MM-DD`;
 * - amounts: currency marks dropped (`RM8.60`), compared as a number with 2 decimals;
 * - the address read is the printed address lines, plus postcode and town when not among them.
 * A field the analyzer did not find never matches, except CORD's tax, where "none" is right when the
 * receipt prints none. An item value the truth leaves null (not printed) is not compared.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { OCR_ENGINES, OcrAnalyzer, type OcrEngine } from '@receipts/analyzer-ocr';
import { DictionaryEnricher } from '@receipts/enricher-brands';
import { isAppError } from '@receipts/core';
import { brandFigures, evaluate, formatReport, type EvalReport, type EvalSplit } from '../eval/evaluate';
import { DiskReadingCache } from '../eval/reading-cache';

/** Our own item labels, one folder per set (tools/eval/labels/README.md). */
const LABELS = fileURLToPath(new URL('../../eval/labels/', import.meta.url));

/** The labels of a set's folder (`sroie`, `de`), when we have labelled it. */
function labelsFor(dir: string): string | undefined {
  const folder = path.join(LABELS, path.basename(dir));
  return existsSync(folder) ? folder : undefined;
}

/** Where the OCR readings are kept between runs unless `--cache` names another folder. */
const DEFAULT_CACHE = 'node_modules/.cache/receipt-eval';

const USAGE =
  'usage: npm run eval -- [--analyzer ocr|textract] [--dir <folder> | --fixtures <folder>] [--split even|odd] [--engine tesseract|paddle|combined] [--cache <folder> | --no-cache] [--out results.json] [--flags] [--limit N] [--workers N]';

/** The development sets under the fixtures folder, and the analyzer each is scored with. */
export const DEV_SETS: Array<{ name: string; analyzer: 'ocr' | 'textract'; dir: string }> = [
  { name: 'OCR, sroie', analyzer: 'ocr', dir: 'sroie' },
  { name: 'OCR, de', analyzer: 'ocr', dir: 'de' },
  { name: 'Textract, SROIE', analyzer: 'textract', dir: 'textract/doc-extract-bench/sroie' },
  { name: 'Textract, CORD', analyzer: 'textract', dir: 'textract/doc-extract-bench/cord' },
];

function summaryLine(name: string, report: EvalReport): string {
  const f = report.fields;
  const pct = (x: number | undefined) => (x === undefined ? '-' : (x * 100).toFixed(1));
  const of = (x: { count: number; of: number } | undefined) =>
    x === undefined || x.of === 0 ? '-' : `${x.count}/${x.of}`;
  const s = report.summary;
  const parts = report.items
    ? [
        `total ${pct(f.total?.accuracy)}`,
        `tax ${pct(f.tax?.accuracy)}`,
        `total+tax ${pct(report.totalAndTax?.accuracy)}`,
        `item F1 ${pct(report.items.f1)}`,
      ]
    : [
        `total ${pct(f.total?.accuracy)}`,
        `date ${pct(f.date?.accuracy)}`,
        `merchant ${pct(f.company?.accuracy)}`,
        ...(f.address ? [`address ${pct(f.address.accuracy)}`] : []),
        ...(s.itemCount ? [`item count ${of(s.itemCount)}`] : []),
        ...(s.labelled
          ? [`item F1 ${pct(s.labelled.f1)}`, `qty/price ${s.labelled.measured}/${s.labelled.matched}`]
          : []),
        ...(s.brands ? [`brands ${brandFigures(s.brands)}`] : []),
        ...(s.itemsAddUp ? [`add up ${of(s.itemsAddUp)}`] : []),
      ];
  parts.push(`flagged ${of(s.flagged)}`, `silent ${of(s.silent)}`, `false alarms ${of(s.falseAlarms)}`);
  if (s.flaggedWithoutUploadDate.count !== s.flagged.count)
    parts.push(
      `(without the upload date: flagged ${of(s.flaggedWithoutUploadDate)}, false alarms ${of(s.falseAlarmsWithoutUploadDate)})`,
    );
  return `${name.padEnd(16)} ${String(report.receipts).padStart(3)} receipts  ${parts.join('  ')}  median ${report.medianSeconds.toFixed(2)} s`;
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      analyzer: { type: 'string' },
      dir: { type: 'string' },
      fixtures: { type: 'string' },
      split: { type: 'string' },
      engine: { type: 'string', default: 'combined' },
      cache: { type: 'string' },
      'no-cache': { type: 'boolean' },
      out: { type: 'string' },
      flags: { type: 'boolean' },
      limit: { type: 'string' },
      workers: { type: 'string', default: '2' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const analyzer = values.analyzer;
  if (analyzer !== undefined && analyzer !== 'ocr' && analyzer !== 'textract') {
    console.error(`--analyzer must be ocr or textract, not ${analyzer}.\n${USAGE}`);
    return 2;
  }
  const split = values.split;
  if (split !== undefined && split !== 'even' && split !== 'odd') {
    console.error(`--split must be even or odd, not ${split}.\n${USAGE}`);
    return 2;
  }
  const engine = values.engine as OcrEngine;
  if (!OCR_ENGINES.includes(engine)) {
    console.error(`--engine must be ${OCR_ENGINES.join(' or ')}, not ${values.engine}.\n${USAGE}`);
    return 2;
  }
  const fixtures = values.fixtures ?? process.env['RECEIPT_FIXTURES_DIR'];
  if (!values.dir && !fixtures) {
    console.error(
      `--dir is required (the folder with the receipts and their NNN.json ground truth), or --fixtures (or RECEIPT_FIXTURES_DIR) to score every development set.\n${USAGE}`,
    );
    return 2;
  }
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  const workers = Number(values.workers);
  if (
    (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) ||
    !(Number.isInteger(workers) && workers > 0)
  ) {
    console.error(`--limit and --workers take a whole number above 0.\n${USAGE}`);
    return 2;
  }

  const sets: Array<{ name: string; analyzer: 'ocr' | 'textract'; dir: string }> = values.dir
    ? [{ name: path.basename(values.dir), analyzer: analyzer ?? 'ocr', dir: path.resolve(values.dir) }]
    : DEV_SETS.filter((s) => analyzer === undefined || s.analyzer === analyzer).map((s) => ({
        ...s,
        dir: path.join(fixtures!, s.dir),
      }));

  const cache = values['no-cache']
    ? undefined
    : new DiskReadingCache(path.resolve(values.cache ?? DEFAULT_CACHE));
  // The brand dictionary's store chains: what the app's analyzers are given (lambdas/src/composition.ts).
  const chains = new DictionaryEnricher();
  const ocr = sets.some((s) => s.analyzer === 'ocr')
    ? await OcrAnalyzer.create({
        workers,
        engine,
        chains,
        ...(cache ? { readingCache: cache } : {}),
      })
    : undefined;
  try {
    const reports: Array<{ name: string; report: EvalReport }> = [];
    for (const set of sets) {
      const report = await evaluate({
        analyzer: set.analyzer,
        dir: set.dir,
        ocr,
        chains,
        enricher: chains,
        limit,
        ...(set.analyzer === 'ocr' && labelsFor(set.dir) ? { labelsDir: labelsFor(set.dir)! } : {}),
        concurrency: set.analyzer === 'ocr' ? workers : 1,
        ...(split ? { split: split as EvalSplit } : {}),
        onReceipt: (r, i, n) => {
          const marks = Object.values(r.correct)
            .map((ok) => (ok ? '+' : '.'))
            .join('');
          const items = r.items ? `  items ${r.items.matched}/${r.items.expected.length}` : '';
          process.stderr.write(
            `${String(i + 1).padStart(3)}/${n}  ${r.id}  ${marks}${items}  ${r.seconds.toFixed(2)} s\n`,
          );
        },
      });
      reports.push({ name: set.name, report });
      if (reports.length > 1) console.log('\n');
      console.log(formatReport(report, { flags: values.flags ?? false }));
    }
    if (reports.length > 1) {
      console.log(`\nsummary${split ? ` (${split} half)` : ''}`);
      for (const { name, report } of reports) console.log(summaryLine(name, report));
      const branded = reports.filter((r) => r.report.summary.brands);
      if (branded.length > 0) {
        console.log(
          `\nbrands (precision/recall of the labelled items read, share of items read with a brand)`,
        );
        for (const { name, report } of branded) {
          const halves = report.halves
            ? `   even ${brandFigures(report.halves.even.brands)}   odd ${brandFigures(report.halves.odd.brands)}`
            : '';
          console.log(`${name.padEnd(16)} ${brandFigures(report.summary.brands)}${halves}`);
        }
      }
    }
    if (cache && ocr) console.log(`\nOCR readings: ${cache.hits} from ${cache.dir}, ${cache.misses} made`);
    if (values.out) {
      const body =
        reports.length === 1
          ? reports[0]!.report
          : Object.fromEntries(reports.map((r) => [r.name, r.report]));
      await writeFile(values.out, JSON.stringify(body, null, 2) + '\n');
      console.log(`\nper-receipt results written to ${values.out}`);
    }
    return 0;
  } finally {
    await ocr?.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(isAppError(error) || error instanceof TypeError ? error.message : String(error));
    console.error(USAGE);
    process.exitCode = 2;
  },
);
