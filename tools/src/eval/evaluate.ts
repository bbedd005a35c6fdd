import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ValidationError,
  type AnalysisResult,
  type AnalyzedItem,
  type AnalyzedMerchant,
  type Analyzer,
} from '@receipts/core';
import { mapAnalyzeExpense } from '@receipts/analyzer-textract';
import { normaliseDate, normaliseText, normaliseTotal } from './normalise';

/** The fields the SROIE ground truth gives for each receipt. */
export const EVAL_FIELDS = ['company', 'date', 'address', 'total'] as const;
/** The summary fields the CORD ground truth gives (its items are scored apart, see {@link scoreItems}). */
export const CORD_FIELDS = ['total', 'tax'] as const;
export type EvalField = (typeof EVAL_FIELDS)[number] | (typeof CORD_FIELDS)[number];

export type EvalFieldValues = Partial<Record<EvalField, string | null>>;

/** Which half of a folder to score: the receipts at even or odd positions in name order. */
export type EvalSplit = 'even' | 'odd';

export interface EvalOptions {
  /** `ocr` reads `NNN.jpg` (or .jpeg/.png/.webp) with the analyzer; `textract` maps `NNN.textract.json`. */
  analyzer: 'ocr' | 'textract';
  /** Folder with the receipts and their ground truth `NNN.json`. */
  dir: string;
  /** The analyzer that reads images (required for `ocr`). */
  ocr?: Analyzer;
  /** Only the first N receipts (in name order, after the split). */
  limit?: number;
  /** Only the receipts at even (0, 2, 4, …) or odd positions of the folder in name order. */
  split?: EvalSplit;
  /** How many receipts to analyse at once (default 1). */
  concurrency?: number;
  /** Called after each receipt, e.g. to print progress. */
  onReceipt?: (result: ReceiptEvaluation, index: number, count: number) => void;
}

/** An item as the CORD ground truth writes it; null where the receipt does not print it. */
export interface EvalItem {
  description: string;
  quantity: number | null;
  unitPrice: number | null;
  amount: number | null;
}

/** How the items of one receipt were read. */
export interface ItemEvaluation {
  expected: EvalItem[];
  got: EvalItem[];
  /** Items paired one to one with an expected item that they match in full. */
  matched: number;
}

/** How one receipt was read. */
export interface ReceiptEvaluation {
  id: string;
  file: string;
  /** Time to analyse it (for textract: to map the stored response). */
  seconds: number;
  expected: EvalFieldValues;
  got: EvalFieldValues;
  correct: Partial<Record<EvalField, boolean>>;
  /** Present when the ground truth lists items (CORD). */
  items?: ItemEvaluation;
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

export interface ItemAccuracy {
  expected: number;
  got: number;
  matched: number;
  precision: number;
  recall: number;
  f1: number;
  /** Receipts with an expected item not matched, or an item read that matches none. */
  failures: Array<{ id: string; missed: EvalItem[]; extra: EvalItem[] }>;
}

export interface EvalReport {
  analyzer: 'ocr' | 'textract';
  dir: string;
  split?: EvalSplit;
  receipts: number;
  /** The fields the ground truth of this folder gives, scored. */
  fields: Partial<Record<EvalField, FieldAccuracy>>;
  /** Receipts whose total and tax are both right (CORD; of those whose truth gives a total). */
  totalAndTax?: { correct: number; total: number; accuracy: number };
  /** Item precision, recall and F1 (CORD). */
  items?: ItemAccuracy;
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

const amountText = (value: number | null) => (value === null ? null : value.toFixed(2));

/** The scored fields of an analysis result, as strings. */
export function fieldsOf(result: AnalysisResult): Record<EvalField, string | null> {
  return {
    company: result.merchant.name,
    date: result.receipt.transaction_date,
    address: addressOf(result.merchant),
    total: amountText(result.receipt.total_amount),
    tax: amountText(result.receipt.total_tax),
  };
}

/**
 * Whether a value read matches the ground truth after the documented normalisation. A missing
 * expected value matches only a missing value when `absentMatches` (CORD's tax: none printed).
 */
export function fieldMatches(
  field: EvalField,
  expected: string | null | undefined,
  got: string | null | undefined,
  absentMatches = false,
): boolean {
  const norm =
    field === 'date' ? normaliseDate : field === 'total' || field === 'tax' ? normaliseTotal : normaliseText;
  const e = norm(expected);
  if (e.length === 0) return absentMatches && norm(got).length === 0;
  return e === norm(got);
}

/**
 * Whether an item read matches an expected one: the same description after text normalisation, and
 * the same quantity, unit price and amount wherever the ground truth gives one (a value the receipt
 * does not print is not held against what the analyzer derived).
 */
export function itemMatches(expected: EvalItem, got: EvalItem): boolean {
  const same = (e: number | null, g: number | null) => e === null || (g !== null && Math.abs(e - g) < 0.005);
  return (
    normaliseText(expected.description) !== '' &&
    normaliseText(expected.description) === normaliseText(got.description) &&
    same(expected.quantity, got.quantity) &&
    same(expected.unitPrice, got.unitPrice) &&
    same(expected.amount, got.amount)
  );
}

/** Pairs expected and read items one to one, each expected item with the first unused read item that matches it. */
export function scoreItems(
  expected: EvalItem[],
  got: EvalItem[],
): ItemEvaluation & { missed: EvalItem[]; extra: EvalItem[] } {
  const used = new Set<number>();
  const missed: EvalItem[] = [];
  for (const e of expected) {
    const at = got.findIndex((g, i) => !used.has(i) && itemMatches(e, g));
    if (at < 0) missed.push(e);
    else used.add(at);
  }
  return { expected, got, matched: used.size, missed, extra: got.filter((_, i) => !used.has(i)) };
}

function itemOf(item: AnalyzedItem): EvalItem {
  return {
    description: item.description,
    quantity: item.quantity,
    unitPrice: item.unit_price,
    amount: item.total_price,
  };
}

interface Truth {
  values: EvalFieldValues;
  items?: EvalItem[];
}

function asTruth(raw: unknown, file: string): Truth {
  if (typeof raw !== 'object' || raw === null) throw new ValidationError(`${file} is not a JSON object.`);
  const r = raw as Record<string, unknown>;
  const text = (k: string) =>
    typeof r[k] === 'string' ? (r[k] as string) : typeof r[k] === 'number' ? String(r[k]) : null;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  if (Array.isArray(r['items'])) {
    const items = (r['items'] as unknown[])
      .filter((i): i is Record<string, unknown> => typeof i === 'object' && i !== null)
      .map((i) => ({
        description: typeof i['description'] === 'string' ? i['description'] : '',
        quantity: num(i['quantity']),
        unitPrice: num(i['unitPrice']),
        amount: num(i['amount']),
      }));
    return { values: { total: text('total'), tax: text('tax') }, items };
  }
  return {
    values: { company: text('company'), date: text('date'), address: text('address'), total: text('total') },
  };
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

async function evaluateOne(
  options: EvalOptions,
  { id, file }: { id: string; file: string },
): Promise<ReceiptEvaluation> {
  const { analyzer, dir } = options;
  const truth = asTruth(JSON.parse(await readFile(path.join(dir, `${id}.json`), 'utf8')), `${id}.json`);
  const scored = Object.keys(truth.values) as EvalField[];
  const input = await readFile(path.join(dir, file));
  const started = process.hrtime.bigint();
  let result: AnalysisResult | undefined;
  let error: string | undefined;
  try {
    result =
      analyzer === 'textract'
        ? mapAnalyzeExpense(JSON.parse(input.toString('utf8')))
        : await options.ocr!.analyze(new Uint8Array(input), IMAGE_TYPES[path.extname(file).toLowerCase()]!);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const all = result ? fieldsOf(result) : null;
  const got = Object.fromEntries(scored.map((f) => [f, all ? all[f] : null])) as EvalFieldValues;
  const itemsKnown = truth.items !== undefined;
  const correct = Object.fromEntries(
    scored.map((f) => [
      f,
      error === undefined && fieldMatches(f, truth.values[f], got[f], itemsKnown && f === 'tax'),
    ]),
  ) as Partial<Record<EvalField, boolean>>;
  // CORD leaves the total empty on a few receipts: there is nothing to score the total against.
  if (itemsKnown && !truth.values.total) {
    delete truth.values.total;
    delete got.total;
    delete correct.total;
  }
  const items = truth.items ? scoreItems(truth.items, result ? result.items.map(itemOf) : []) : undefined;
  return {
    id,
    file,
    seconds,
    expected: truth.values,
    got,
    correct,
    ...(items ? { items } : {}),
    ...(error ? { error } : {}),
  };
}

/**
 * Runs an analyzer over a folder of receipts with ground truth and scores it: per-field exact-match
 * accuracy after normalisation (see normalise.ts), item precision, recall and F1 where the ground truth
 * lists items, the median and mean time per receipt, and every receipt that got something wrong.
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
  if (options.split) {
    const keep = options.split === 'even' ? 0 : 1;
    receipts = receipts.filter((_, i) => i % 2 === keep);
  }
  if (options.limit !== undefined && options.limit > 0) receipts = receipts.slice(0, options.limit);

  const results: ReceiptEvaluation[] = new Array(receipts.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < receipts.length) {
      const index = next++;
      const result = await evaluateOne(options, receipts[index]!);
      results[index] = result;
      options.onReceipt?.(result, done++, receipts.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker));

  const scored = [...new Set(results.flatMap((r) => Object.keys(r.expected) as EvalField[]))];
  const fields = Object.fromEntries(
    scored.map((f) => {
      const within = results.filter((r) => f in r.expected);
      const correct = within.filter((r) => r.correct[f]).length;
      const failures = within
        .filter((r) => !r.correct[f])
        .map((r) => ({
          id: r.id,
          expected: r.expected[f] ?? null,
          got: r.error ? `error: ${r.error}` : (r.got[f] ?? null),
        }));
      return [f, { correct, total: within.length, accuracy: correct / within.length, failures }];
    }),
  ) as Partial<Record<EvalField, FieldAccuracy>>;

  const withItems = results.filter((r) => r.items);
  let items: ItemAccuracy | undefined;
  let totalAndTax: EvalReport['totalAndTax'];
  if (withItems.length > 0) {
    const expected = withItems.reduce((s, r) => s + r.items!.expected.length, 0);
    const got = withItems.reduce((s, r) => s + r.items!.got.length, 0);
    const matched = withItems.reduce((s, r) => s + r.items!.matched, 0);
    const precision = got === 0 ? 0 : matched / got;
    const recall = expected === 0 ? 0 : matched / expected;
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    const failures = withItems
      .map((r) => ({ id: r.id, ...scoreItems(r.items!.expected, r.items!.got) }))
      .filter((x) => x.missed.length > 0 || x.extra.length > 0)
      .map(({ id, missed, extra }) => ({ id, missed, extra }));
    items = { expected, got, matched, precision, recall, f1, failures };
    const scoredTotal = withItems.filter((r) => 'total' in r.expected);
    const both = scoredTotal.filter((r) => r.correct.total && r.correct.tax).length;
    totalAndTax = { correct: both, total: scoredTotal.length, accuracy: both / scoredTotal.length };
  }

  const times = results.map((r) => r.seconds);
  return {
    analyzer,
    dir,
    ...(options.split ? { split: options.split } : {}),
    receipts: results.length,
    fields,
    ...(totalAndTax ? { totalAndTax } : {}),
    ...(items ? { items } : {}),
    medianSeconds: median(times),
    meanSeconds: times.reduce((s, t) => s + t, 0) / times.length,
    results,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

function itemText(i: EvalItem): string {
  return `${JSON.stringify(i.description)} ${i.quantity ?? '-'} x ${i.unitPrice ?? '-'} = ${i.amount ?? '-'}`;
}

/** The report as text for a terminal: accuracy per field, items, timing, then every miss. */
export function formatReport(report: EvalReport): string {
  const lines: string[] = [];
  const half = report.split ? `, ${report.split} half` : '';
  lines.push(`analyzer ${report.analyzer}, ${report.receipts} receipts from ${report.dir}${half}`);
  lines.push('');
  lines.push('field      exact match');
  const fields = Object.keys(report.fields) as EvalField[];
  for (const f of fields) {
    const a = report.fields[f]!;
    lines.push(`${f.padEnd(10)} ${pct(a.accuracy).padStart(7)}  (${a.correct}/${a.total})`);
  }
  if (report.totalAndTax) {
    const t = report.totalAndTax;
    lines.push(`total+tax  ${pct(t.accuracy).padStart(7)}  (${t.correct}/${t.total} with both right)`);
  }
  if (report.items) {
    const i = report.items;
    lines.push('');
    lines.push(
      `items      precision ${pct(i.precision)}  recall ${pct(i.recall)}  F1 ${pct(i.f1)}  (${i.matched} matched, ${i.got} read, ${i.expected} expected)`,
    );
  }
  lines.push('');
  lines.push(
    `median ${report.medianSeconds.toFixed(2)} s per receipt, mean ${report.meanSeconds.toFixed(2)} s`,
  );
  for (const f of fields) {
    const failures = report.fields[f]!.failures;
    if (failures.length === 0) continue;
    lines.push('');
    lines.push(`${f}: ${failures.length} failed`);
    for (const x of failures)
      lines.push(`  ${x.id}  expected ${JSON.stringify(x.expected)}  got ${JSON.stringify(x.got)}`);
  }
  if (report.items && report.items.failures.length > 0) {
    lines.push('');
    lines.push(`items: ${report.items.failures.length} receipts with a miss`);
    for (const x of report.items.failures) {
      lines.push(`  ${x.id}`);
      for (const m of x.missed) lines.push(`    expected ${itemText(m)}`);
      for (const e of x.extra) lines.push(`    read     ${itemText(e)}`);
    }
  }
  return lines.join('\n');
}
