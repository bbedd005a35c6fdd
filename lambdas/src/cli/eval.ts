/**
 * `npm run eval -- --analyzer ocr|textract --dir <folder> [--out results.json] [--limit N] [--workers N]`
 *
 * Scores an analyzer against receipts with ground truth, as in the SROIE data set: each receipt is
 * `NNN.jpg` (or .jpeg, .png, .webp) for `--analyzer ocr`, or a stored Textract AnalyzeExpense
 * response `NNN.textract.json` for `--analyzer textract`, beside its ground truth `NNN.json`
 * (`{ "company", "date", "address", "total" }`). Nothing is sent over the network: OCR runs locally
 * and Textract responses are read from disk and mapped with `mapAnalyzeExpense`.
 *
 * It prints, per field, the share of receipts read exactly right, the median (and mean) seconds per
 * receipt, and every receipt that got a field wrong with what was expected and what was read.
 * `--out` writes the per-receipt results and the summary as JSON.
 *
 * Normalisation before comparing (both sides alike; see `lambdas/src/eval/normalise.ts`):
 * - company and address: Unicode NFKC, case-folded, every run of characters that are neither
 *   letters nor digits (punctuation, spaces, line breaks) becomes one space, ends trimmed;
 * - date: read as a calendar date, day first when ambiguous (the ground truth is Malaysian:
 *   `25/12/2018`, `17-03-18`, `04 JUN 2018`), compared as `YYYY-MM-DD`;
 * - total: currency marks dropped (`RM8.60`), compared as a number with 2 decimals;
 * - the address read is the printed address lines, plus postcode and town when not among them.
 * A field the analyzer did not find never matches.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { OcrAnalyzer } from '@receipts/analyzer-ocr';
import { isAppError } from '@receipts/core';
import { evaluate, formatReport } from '../eval/evaluate';

const USAGE =
  'usage: npm run eval -- --analyzer ocr|textract --dir <folder> [--out results.json] [--limit N] [--workers N]';

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      analyzer: { type: 'string', default: 'ocr' },
      dir: { type: 'string' },
      out: { type: 'string' },
      limit: { type: 'string' },
      workers: { type: 'string', default: '1' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const analyzer = values.analyzer;
  if (analyzer !== 'ocr' && analyzer !== 'textract') {
    console.error(`--analyzer must be ocr or textract, not ${analyzer}.\n${USAGE}`);
    return 2;
  }
  if (!values.dir) {
    console.error(
      `--dir is required: the folder with the receipts and their NNN.json ground truth.\n${USAGE}`,
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

  const ocr = analyzer === 'ocr' ? await OcrAnalyzer.create({ workers }) : undefined;
  try {
    const report = await evaluate({
      analyzer,
      dir: path.resolve(values.dir),
      ocr,
      limit,
      onReceipt: (r, i, n) => {
        const marks = (['company', 'date', 'address', 'total'] as const)
          .map((f) => (r.correct[f] ? '+' : '.'))
          .join('');
        process.stderr.write(
          `${String(i + 1).padStart(3)}/${n}  ${r.id}  ${marks}  ${r.seconds.toFixed(2)} s\n`,
        );
      },
    });
    console.log(formatReport(report));
    if (values.out) {
      await writeFile(values.out, JSON.stringify(report, null, 2) + '\n');
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
