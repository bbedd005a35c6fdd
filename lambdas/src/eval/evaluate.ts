import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ValidationError, type AnalysisResult, type AnalyzedMerchant, type Analyzer } from '@receipts/core';
import { mapAnalyzeExpense } from '@receipts/analyzer-textract';
import { normaliseDate, normaliseText, normaliseTotal } from './normalise';

/** The fields the SROIE ground truth gives for each receipt. */
export const EVAL_FIELDS = ['company', 'date', 'address', 'total'] as const;
export type EvalField = (typeof EVAL_FIELDS)[number];

export type EvalFieldValues = Record<EvalField, string | null>;

export interface EvalOptions {
  /** `ocr` reads `NNN.jpg` (or .jpeg/.png/.webp) with the analyzer; `textract` maps `NNN.textract.json`. */
  analyzer: 'ocr' | 'textract';
  /** Folder with the receipts and their ground truth `NNN.json`. */
  dir: string;
  /** The analyzer that reads images (required for `ocr`). */
  ocr?: Analyzer;
  /** Only the first N receipts (in name order). */
  limit?: number;
  /** Called after each receipt, e.g. to print progress. */
  onReceipt?: (result: ReceiptEvaluation, index: number, count: number) => void;
}

/** How one receipt was read. */
export interface ReceiptEvaluation {
  id: string;
  file: string;
  /** Time to analyse it (for textract: to map the stored response). */
  seconds: number;
  expected: EvalFieldValues;
  got: EvalFieldValues;
  correct: Record<EvalField, boolean>;
  /** Set when the analyzer failed on this receipt; every field then counts as wrong. */
  error?: string;
}

export interface FieldAccuracy {
  correct: number;
  total: number;
  /** 0..1 */
  accuracy: number;
  failures: Array<{ id: string; expected: string | null; got: string | null }>;
}

export interface EvalReport {
  analyzer: 'ocr' | 'textract';
  dir: string;
  receipts: number;
  fields: Record<EvalField, FieldAccuracy>;
  medianSeconds: number;
  meanSeconds: number;
  results: ReceiptEvaluation[];
}

const IMAGE_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
};

/** The address as one string: the printed lines, plus postcode and town when they are not in them. */
export function addressOf(merchant: AnalyzedMerchant): string | null {
  const street = merchant.street_address ?? '';
  const parts = [street];
  const folded = normaliseText(street);
  if (merchant.postal_code && !folded.includes(normaliseText(merchant.postal_code)))
    parts.push(merchant.postal_code);
  if (merchant.city && !folded.includes(normaliseText(merchant.city))) parts.push(merchant.city);
  const joined = parts.filter((p) => p.length > 0).join(', ');
  return joined.length > 0 ? joined : null;
}

/** The four SROIE fields of an analysis result, as strings. */
export function fieldsOf(result: AnalysisResult): EvalFieldValues {
  return {
    company: result.merchant.name,
    date: result.receipt.transaction_date,
    address: addressOf(result.merchant),
    total: result.receipt.total_amount === null ? null : result.receipt.total_amount.toFixed(2),
  };
}

/** Whether a value read matches the ground truth after the documented normalisation. */
export function fieldMatches(field: EvalField, expected: string | null, got: string | null): boolean {
  const norm = field === 'date' ? normaliseDate : field === 'total' ? normaliseTotal : normaliseText;
  const e = norm(expected);
  return e.length > 0 && e === norm(got);
}

function asTruth(raw: unknown, file: string): EvalFieldValues {
  if (typeof raw !== 'object' || raw === null) throw new ValidationError(`${file} is not a JSON object.`);
  const r = raw as Record<string, unknown>;
  const text = (k: string) =>
    typeof r[k] === 'string' ? (r[k] as string) : typeof r[k] === 'number' ? String(r[k]) : null;
  return { company: text('company'), date: text('date'), address: text('address'), total: text('total') };
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The receipts in `dir` that have both an input for `analyzer` and a ground truth, in name order. */
async function listReceipts(
  dir: string,
  analyzer: EvalOptions['analyzer'],
): Promise<Array<{ id: string; file: string }>> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (cause) {
    throw new ValidationError(`Cannot read the folder ${dir}: it does not exist or is not readable.`, {
      cause,
    });
  }
  const present = new Set(names);
  const found: Array<{ id: string; file: string }> = [];
  for (const name of names.sort()) {
    let id: string | null = null;
    if (analyzer === 'textract') {
      id = name.endsWith('.textract.json') ? name.slice(0, -'.textract.json'.length) : null;
    } else {
      const ext = path.extname(name).toLowerCase();
      id = IMAGE_TYPES[ext] ? name.slice(0, -ext.length) : null;
    }
    if (id !== null && present.has(`${id}.json`)) found.push({ id, file: name });
  }
  return found;
}

/**
 * Runs an analyzer over a folder of receipts with ground truth and scores it field by field:
 * per-field exact-match accuracy after normalisation (see normalise.ts), the median and mean time
 * per receipt, and every receipt that got a field wrong (expected vs got).
 * @throws ValidationError when the folder is missing or holds no receipt with ground truth
 */
export async function evaluate(options: EvalOptions): Promise<EvalReport> {
  const { analyzer, dir } = options;
  if (analyzer === 'ocr' && !options.ocr)
    throw new ValidationError('evaluate: an OCR analyzer is needed for --analyzer ocr.');
  let receipts = await listReceipts(dir, analyzer);
  if (receipts.length === 0) {
    const wanted = analyzer === 'textract' ? 'NNN.textract.json' : 'NNN.jpg (or .png, .webp)';
    throw new ValidationError(
      `No receipts in ${dir}: expected ${wanted} files, each with its ground truth NNN.json.`,
    );
  }
  if (options.limit !== undefined && options.limit > 0) receipts = receipts.slice(0, options.limit);

  const results: ReceiptEvaluation[] = [];
  for (const [index, { id, file }] of receipts.entries()) {
    const expected = asTruth(JSON.parse(await readFile(path.join(dir, `${id}.json`), 'utf8')), `${id}.json`);
    const input = await readFile(path.join(dir, file));
    const started = process.hrtime.bigint();
    let got: EvalFieldValues = { company: null, date: null, address: null, total: null };
    let error: string | undefined;
    try {
      const result =
        analyzer === 'textract'
          ? mapAnalyzeExpense(JSON.parse(input.toString('utf8')))
          : await options.ocr!.analyze(new Uint8Array(input), IMAGE_TYPES[path.extname(file).toLowerCase()]!);
      got = fieldsOf(result);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const correct = Object.fromEntries(
      EVAL_FIELDS.map((f) => [f, error === undefined && fieldMatches(f, expected[f], got[f])]),
    ) as Record<EvalField, boolean>;
    const result: ReceiptEvaluation = {
      id,
      file,
      seconds,
      expected,
      got,
      correct,
      ...(error ? { error } : {}),
    };
    results.push(result);
    options.onReceipt?.(result, index, receipts.length);
  }

  const fields = Object.fromEntries(
    EVAL_FIELDS.map((f) => {
      const correct = results.filter((r) => r.correct[f]).length;
      const failures = results
        .filter((r) => !r.correct[f])
        .map((r) => ({ id: r.id, expected: r.expected[f], got: r.error ? `error: ${r.error}` : r.got[f] }));
      return [f, { correct, total: results.length, accuracy: correct / results.length, failures }];
    }),
  ) as Record<EvalField, FieldAccuracy>;
  const times = results.map((r) => r.seconds);
  return {
    analyzer,
    dir,
    receipts: results.length,
    fields,
    medianSeconds: median(times),
    meanSeconds: times.reduce((s, t) => s + t, 0) / times.length,
    results,
  };
}

/** The report as text for a terminal: accuracy per field, timing, then the failures per field. */
export function formatReport(report: EvalReport): string {
  const lines: string[] = [];
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  lines.push(`analyzer ${report.analyzer}, ${report.receipts} receipts from ${report.dir}`);
  lines.push('');
  lines.push('field      exact match');
  for (const f of EVAL_FIELDS) {
    const a = report.fields[f];
    lines.push(`${f.padEnd(10)} ${pct(a.accuracy).padStart(7)}  (${a.correct}/${a.total})`);
  }
  lines.push('');
  lines.push(
    `median ${report.medianSeconds.toFixed(2)} s per receipt, mean ${report.meanSeconds.toFixed(2)} s`,
  );
  for (const f of EVAL_FIELDS) {
    const failures = report.fields[f].failures;
    if (failures.length === 0) continue;
    lines.push('');
    lines.push(`${f}: ${failures.length} failed`);
    for (const x of failures)
      lines.push(`  ${x.id}  expected ${JSON.stringify(x.expected)}  got ${JSON.stringify(x.got)}`);
  }
  return lines.join('\n');
}
