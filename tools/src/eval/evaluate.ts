import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ValidationError,
  assessReview,
  enrichAnalysis,
  totalChecksOut,
  uploadDateFor,
  type AnalysisResult,
  type AnalyzedItem,
  type AnalyzedMerchant,
  type Analyzer,
  type ChainLookup,
  type Enricher,
} from '@receipts/core';
import { mapAnalyzeExpense } from '@receipts/analyzer-textract';
import { normaliseChain, normaliseDate, normaliseText, normaliseTotal } from './normalise';
import { readLabels, scoreLabelledItems, type BrandScore, type EvalItem, type LabelScore } from './labels';

export type { EvalItem } from './labels';

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
  /** Known store chains for the Textract mapping (the OCR analyzer is given its own). */
  chains?: ChainLookup;
  /**
   * Fills in the items' brands as the app does after analysis (`enrichAnalysis`), so that they are
   * scored against the labels' brands; without it the items keep what the analyzer gave.
   */
  enricher?: Enricher;
  /** Only the first N receipts (in name order, after the split). */
  limit?: number;
  /** Only the receipts at even (0, 2, 4, …) or odd positions of the folder in name order. */
  split?: EvalSplit;
  /** How many receipts to analyse at once (default 1). */
  concurrency?: number;
  /**
   * Folder with our own item labels for this set (`ID.json`, see tools/eval/labels/README.md): the
   * items read are scored against them where a receipt has one.
   */
  labelsDir?: string;
  /** The day of the analysis for the review check (a date after it is in the future); default today. */
  today?: string;
  /** Called after each receipt, e.g. to print progress. */
  onReceipt?: (result: ReceiptEvaluation, index: number, count: number) => void;
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
  /** Its position in the folder (name order), whose parity is its half. */
  index: number;
  /** The items read scored against our own labels, where the receipt has them. */
  labelled?: LabelScore;
  /** Items the truth counts (the German set's `items_count`, else our labels), and items read. */
  itemCount?: { expected: number; got: number };
  /**
   * Whether the items read (alone or with the tax; with or without all the adjustments read: cash
   * rounding, service charges, discounts) add up to the right total.
   */
  itemsAddUp?: boolean;
  /**
   * Whether the app would ask a person to check this reading (`assessReview` of @receipts/core), a
   * receipt that prints no date taking the day of the analysis as its upload day (`uploadDateFor`).
   */
  needsReview: boolean;
  reviewReasons: string[];
  /**
   * Whether it would be flagged if a receipt printing no date were not given its upload day (absent:
   * as `needsReview`).
   */
  needsReviewWithoutUploadDate?: boolean;
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

/** A share of receipts: how many of how many. */
export interface Share {
  count: number;
  of: number;
}

/** The figures of a set of receipts (the whole set, or one half). */
export interface EvalSummary {
  receipts: number;
  fields: Partial<Record<EvalField, Share>>;
  /** Receipts with as many items read as the truth counts. */
  itemCount?: Share;
  /** Item precision, recall and F1 against our own labels, on the receipts labelled. */
  labelled?: {
    receipts: number;
    expected: number;
    got: number;
    matched: number;
    /** Matched items with the labels' quantity and unit price. */
    measured: number;
    precision: number;
    recall: number;
    f1: number;
  };
  /** The brands of the items read against the labels' (summed {@link BrandScore}s, misses aside). */
  brands?: Omit<BrandScore, 'misses'>;
  /** Receipts whose items add up to the right total. */
  itemsAddUp?: Share;
  /** Item precision, recall and F1 against the set's own truth (CORD), as in {@link ItemAccuracy}. */
  items?: Omit<ItemAccuracy, 'failures'>;
  /** Receipts the app would flag "needs review". */
  flagged: Share;
  /** Receipts with a wrong total or date that were not flagged. */
  silent: Share;
  /** Flagged receipts whose total and date were right. */
  falseAlarms: Share;
  /**
   * The two figures above if receipts that print no date (restaurant bills, CORD) did not take their
   * upload day and were flagged `no_date`, as before #24.
   */
  flaggedWithoutUploadDate: Share;
  falseAlarmsWithoutUploadDate: Share;
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
  /** The figures of the whole set, and of each half when the whole set was scored. */
  summary: EvalSummary;
  halves?: { even: EvalSummary; odd: EvalSummary };
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
  if (field === 'company' && expected?.startsWith(CHAIN))
    return chainMatches(expected.slice(CHAIN.length), got);
  const norm =
    field === 'date' ? normaliseDate : field === 'total' || field === 'tax' ? normaliseTotal : normaliseText;
  const e = norm(expected);
  if (e.length === 0) return absentMatches && norm(got).length === 0;
  return e === norm(got);
}

/** Marks a truth's company as a chain's slug (the German set), compared by {@link chainMatches}. */
const CHAIN = 'chain:';

/**
 * Whether a merchant name read names the chain of a slug (`aldi`, `marktkauf`): both lower-case
 * letters only, and either contains the other (`Aldi GmbH & Co. KG`, `real,- SB-Warenhaus`).
 */
export function chainMatches(slug: string, got: string | null | undefined): boolean {
  const a = normaliseChain(slug);
  const b = normaliseChain(got);
  return a.length > 0 && b.length > 0 && (a.includes(b) || b.includes(a));
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
    brand: item.brand ?? null,
    ...(item.brand_unsure ? { brandUnsure: true } : {}),
  };
}

interface Truth {
  values: EvalFieldValues;
  items?: EvalItem[];
  /** Items on the receipt as the truth counts them (null: not known). */
  itemsCount?: number | null;
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
  if ('items_count' in r) {
    // The German set: the chain's slug, the date and the total, and the number of items.
    const slug = text('company');
    return {
      values: { company: slug === null ? null : CHAIN + slug, date: text('date'), total: text('total') },
      itemsCount: num(r['items_count']),
    };
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
  { id, file, index }: { id: string; file: string; index: number },
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
        ? mapAnalyzeExpense(
            JSON.parse(input.toString('utf8')),
            options.chains ? { chains: options.chains } : {},
          )
        : await options.ocr!.analyze(new Uint8Array(input), IMAGE_TYPES[path.extname(file).toLowerCase()]!);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result && options.enricher) result = enrichAnalysis(result, options.enricher);
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
  const read = result ? result.items.map(itemOf) : [];
  const items = truth.items ? scoreItems(truth.items, read) : undefined;
  const labels = options.labelsDir ? await readLabels(options.labelsDir, id) : null;
  const labelled = labels ? scoreLabelledItems(labels, read) : undefined;
  const countExpected = truth.itemsCount ?? labels?.length ?? null;
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const analysed = result ? assessReview(result, today) : { needs_review: true, review_reasons: [] };
  // As the app makes the receipt row: a receipt that prints no date takes its upload day (today).
  const fromUpload = result ? uploadDateFor(result, analysed, today) : null;
  const review = fromUpload?.assessment ?? analysed;
  if (fromUpload && 'date' in got) {
    got.date = fromUpload.transaction_date;
    correct.date = fieldMatches('date', truth.values.date, got.date);
  }
  const rightTotal = truth.values.total ? Number(normaliseTotal(truth.values.total)) : null;
  return {
    id,
    file,
    index,
    seconds,
    expected: truth.values,
    got,
    correct,
    ...(items ? { items } : {}),
    ...(labelled ? { labelled } : {}),
    ...(countExpected !== null ? { itemCount: { expected: countExpected, got: read.length } } : {}),
    ...(rightTotal !== null && result
      ? {
          itemsAddUp: totalChecksOut(
            rightTotal,
            result.items,
            result.receipt.total_tax,
            null,
            result.receipt.adjustments,
          ),
        }
      : {}),
    needsReview: review.needs_review,
    reviewReasons: review.review_reasons,
    needsReviewWithoutUploadDate: analysed.needs_review,
    ...(error ? { error } : {}),
  };
}

const share = (results: ReceiptEvaluation[], test: (r: ReceiptEvaluation) => boolean): Share => ({
  count: results.filter(test).length,
  of: results.length,
});

/** Whether the total and the date (where the truth gives them) were read right. */
const keyFieldsRight = (r: ReceiptEvaluation) =>
  r.correct.total !== false && r.correct.date !== false && r.error === undefined;

/** Whether a receipt would be flagged if one printing no date were not given its upload day. */
const flaggedWithoutUploadDate = (r: ReceiptEvaluation) => r.needsReviewWithoutUploadDate ?? r.needsReview;

/** The brand figures of several receipts added up. */
function sumBrands(scores: BrandScore[]): Omit<BrandScore, 'misses'> {
  const sum = { given: 0, right: 0, unsure: 0, labelled: 0, found: 0, read: 0, branded: 0 };
  for (const s of scores) for (const k of Object.keys(sum) as Array<keyof typeof sum>) sum[k] += s[k];
  return sum;
}

/**
 * Brand precision (of the paired items given a brand, the share right), recall (of the labelled
 * brands, the share found) and the share of items read with a brand, as
 * `P/R 97/81  share 25.0 (40/160)  unsure 3`.
 */
export function brandFigures(b: Omit<BrandScore, 'misses'> | undefined): string {
  if (!b) return '-';
  const pc = (n: number, d: number) => (d === 0 ? '-' : ((n / d) * 100).toFixed(0));
  return `P/R ${pc(b.right, b.given)}/${pc(b.found, b.labelled)}  share ${pc(b.branded, b.read)} (${b.branded}/${b.read})`;
}

/** The figures of some receipts: fields, item count, labelled items, items adding up, review. */
export function summarise(results: ReceiptEvaluation[]): EvalSummary {
  const scored = [...new Set(results.flatMap((r) => Object.keys(r.expected) as EvalField[]))];
  const fields = Object.fromEntries(
    scored.map((f) => {
      const within = results.filter((r) => f in r.expected);
      return [f, share(within, (r) => r.correct[f] === true)];
    }),
  ) as Partial<Record<EvalField, Share>>;
  const counted = results.filter((r) => r.itemCount);
  const labelled = results.filter((r) => r.labelled);
  const withTotal = results.filter((r) => r.itemsAddUp !== undefined);
  const withItems = results.filter((r) => r.items);
  const flagged = results.filter((r) => r.needsReview);
  let labelledSummary: EvalSummary['labelled'];
  if (labelled.length > 0) {
    const expected = labelled.reduce((s, r) => s + r.labelled!.expected, 0);
    const got = labelled.reduce((s, r) => s + r.labelled!.got, 0);
    const matched = labelled.reduce((s, r) => s + r.labelled!.matched, 0);
    const measured = labelled.reduce((s, r) => s + r.labelled!.measured, 0);
    const precision = got === 0 ? 0 : matched / got;
    const recall = expected === 0 ? 0 : matched / expected;
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    labelledSummary = { receipts: labelled.length, expected, got, matched, measured, precision, recall, f1 };
  }
  const brands = labelled.length > 0 ? sumBrands(labelled.map((r) => r.labelled!.brands)) : undefined;
  return {
    receipts: results.length,
    fields,
    ...(counted.length > 0
      ? { itemCount: share(counted, (r) => r.itemCount!.expected === r.itemCount!.got) }
      : {}),
    ...(labelledSummary ? { labelled: labelledSummary } : {}),
    ...(brands && brands.labelled > 0 ? { brands } : {}),
    ...(withTotal.length > 0 ? { itemsAddUp: share(withTotal, (r) => r.itemsAddUp === true) } : {}),
    ...(withItems.length > 0 ? { items: itemAccuracy(withItems) } : {}),
    flagged: share(results, (r) => r.needsReview),
    silent: share(results, (r) => !keyFieldsRight(r) && !r.needsReview),
    falseAlarms: { count: flagged.filter(keyFieldsRight).length, of: results.length },
    flaggedWithoutUploadDate: share(results, flaggedWithoutUploadDate),
    falseAlarmsWithoutUploadDate: share(results, (r) => flaggedWithoutUploadDate(r) && keyFieldsRight(r)),
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
  const listed = await listReceipts(dir, analyzer);
  if (listed.length === 0) {
    const wanted = analyzer === 'textract' ? 'NNN.textract.json' : 'NNN.jpg (or .png, .webp)';
    throw new ValidationError(
      `No receipts in ${dir}: expected ${wanted} files, each with its ground truth NNN.json.`,
    );
  }
  let receipts = listed.map((r, index) => ({ ...r, index }));
  if (options.split) {
    const keep = options.split === 'even' ? 0 : 1;
    receipts = receipts.filter((r) => r.index % 2 === keep);
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
          expected: r.expected[f]?.replace(CHAIN, '') ?? null,
          got: r.error ? `error: ${r.error}` : (r.got[f] ?? null),
        }));
      return [f, { correct, total: within.length, accuracy: correct / within.length, failures }];
    }),
  ) as Partial<Record<EvalField, FieldAccuracy>>;

  const withItems = results.filter((r) => r.items);
  let items: ItemAccuracy | undefined;
  let totalAndTax: EvalReport['totalAndTax'];
  if (withItems.length > 0) {
    const failures = withItems
      .map((r) => ({ id: r.id, ...scoreItems(r.items!.expected, r.items!.got) }))
      .filter((x) => x.missed.length > 0 || x.extra.length > 0)
      .map(({ id, missed, extra }) => ({ id, missed, extra }));
    items = { ...itemAccuracy(withItems), failures };
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
    summary: summarise(results),
    ...(options.split
      ? {}
      : {
          halves: {
            even: summarise(results.filter((r) => r.index % 2 === 0)),
            odd: summarise(results.filter((r) => r.index % 2 === 1)),
          },
        }),
    results,
  };
}

/** Item precision, recall and F1 over receipts whose truth lists their items. */
function itemAccuracy(withItems: ReceiptEvaluation[]): Omit<ItemAccuracy, 'failures'> {
  const expected = withItems.reduce((s, r) => s + r.items!.expected.length, 0);
  const got = withItems.reduce((s, r) => s + r.items!.got.length, 0);
  const matched = withItems.reduce((s, r) => s + r.items!.matched, 0);
  const precision = got === 0 ? 0 : matched / got;
  const recall = expected === 0 ? 0 : matched / expected;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { expected, got, matched, precision, recall, f1 };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

const shareText = (x: Share | undefined) =>
  x === undefined || x.of === 0 ? '-' : `${((x.count / x.of) * 100).toFixed(1)} (${x.count}/${x.of})`;

/**
 * The figures of the whole set and of each half side by side: fields, item count, item F1 against
 * our labels, items adding up to the right total, and the review flags (flagged, silent errors,
 * false alarms, as shares of all receipts).
 */
export function formatSummaries(report: Pick<EvalReport, 'summary' | 'halves' | 'split'>): string[] {
  const columns: Array<[string, EvalSummary]> = [
    [report.split ? `${report.split} half` : 'whole', report.summary],
  ];
  if (report.halves) columns.push(['even half', report.halves.even], ['odd half', report.halves.odd]);
  const rows: Array<[string, (s: EvalSummary) => string]> = [
    ...(Object.keys(report.summary.fields) as EvalField[]).map(
      (f) => [f, (s: EvalSummary) => shareText(s.fields[f])] as [string, (s: EvalSummary) => string],
    ),
  ];
  if (report.summary.itemCount) rows.push(['item count', (s) => shareText(s.itemCount)]);
  if (report.summary.labelled) {
    rows.push([
      'item P/R/F1',
      (s) =>
        s.labelled
          ? `${(s.labelled.precision * 100).toFixed(0)}/${(s.labelled.recall * 100).toFixed(0)}/${(s.labelled.f1 * 100).toFixed(1)}`
          : '-',
    ]);
    rows.push([
      'labelled',
      (s) =>
        s.labelled ? `${s.labelled.matched}/${s.labelled.expected} items, ${s.labelled.got} read` : '-',
    ]);
    rows.push([
      'quantity, unit price',
      (s) => (s.labelled ? `${s.labelled.measured}/${s.labelled.matched} matched items` : '-'),
    ]);
  }
  if (report.summary.brands) {
    const of = (n: number, d: number) => (d === 0 ? '-' : `${((n / d) * 100).toFixed(1)} (${n}/${d})`);
    rows.push(['brand precision', (s) => (s.brands ? of(s.brands.right, s.brands.given) : '-')]);
    rows.push(['brand recall', (s) => (s.brands ? of(s.brands.found, s.brands.labelled) : '-')]);
    rows.push(['brand share', (s) => (s.brands ? of(s.brands.branded, s.brands.read) : '-')]);
    rows.push(['brands unsure', (s) => (s.brands ? `${s.brands.unsure} of ${s.brands.given}` : '-')]);
  }
  if (report.summary.itemsAddUp) rows.push(['items add up', (s) => shareText(s.itemsAddUp)]);
  if (report.summary.items)
    rows.push([
      'item P/R/F1',
      (s) =>
        s.items
          ? `${(s.items.precision * 100).toFixed(0)}/${(s.items.recall * 100).toFixed(0)}/${(s.items.f1 * 100).toFixed(1)}`
          : '-',
    ]);
  rows.push(['flagged', (s) => shareText(s.flagged)]);
  rows.push(['silent', (s) => shareText(s.silent)]);
  rows.push(['false alarm', (s) => shareText(s.falseAlarms)]);
  if (report.summary.flaggedWithoutUploadDate.count !== report.summary.flagged.count) {
    rows.push(['flagged, no upload date', (s) => shareText(s.flaggedWithoutUploadDate)]);
    rows.push(['false alarm, no upload date', (s) => shareText(s.falseAlarmsWithoutUploadDate)]);
  }
  const width = 24;
  const label = Math.max(12, ...rows.map(([name]) => name.length));
  const out = [`${''.padEnd(label)} ${columns.map(([name]) => name.padEnd(width)).join(' ')}`];
  for (const [name, cell] of rows)
    out.push(`${name.padEnd(label)} ${columns.map(([, s]) => cell(s).padEnd(width)).join(' ')}`);
  return out;
}

function itemText(i: EvalItem): string {
  return `${JSON.stringify(i.description)} ${i.quantity ?? '-'} x ${i.unitPrice ?? '-'} = ${i.amount ?? '-'}`;
}

/**
 * The report as text for a terminal: accuracy per field, items, timing, then every miss; with
 * `flags`, every receipt flagged "needs review" too, with its reasons and whether its total and date
 * were right.
 */
export function formatReport(report: EvalReport, options: { flags?: boolean } = {}): string {
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
  lines.push(...formatSummaries(report));
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
  const labelMisses = report.results.filter(
    (r) => r.labelled && (r.labelled.missed.length > 0 || r.labelled.extra.length > 0),
  );
  if (labelMisses.length > 0) {
    lines.push('');
    lines.push(`labelled items: ${labelMisses.length} receipts with a miss`);
    for (const r of labelMisses) {
      lines.push(`  ${r.id}  (${r.labelled!.matched} of ${r.labelled!.expected} matched)`);
      for (const m of r.labelled!.missed) lines.push(`    expected ${itemText(m)}`);
      for (const e of r.labelled!.extra) lines.push(`    read     ${itemText(e)}`);
    }
  }
  const brandMisses = report.results.filter((r) => r.labelled && r.labelled.brands.misses.length > 0);
  if (brandMisses.length > 0) {
    lines.push('');
    lines.push(`brands: ${brandMisses.length} receipts with a brand wrong or not found (of the items read)`);
    for (const r of brandMisses)
      for (const m of r.labelled!.brands.misses)
        lines.push(
          `  ${r.id}  ${JSON.stringify(m.description)}  expected ${JSON.stringify(m.expected)}  got ${JSON.stringify(m.got)}`,
        );
  }
  const silent = report.results.filter((r) => !keyFieldsRight(r) && !r.needsReview);
  if (silent.length > 0) {
    lines.push('');
    lines.push(`silent: ${silent.length} receipts with a wrong total or date not flagged`);
    for (const r of silent)
      lines.push(
        `  ${r.id}  total ${JSON.stringify(r.got.total ?? null)} (truth ${JSON.stringify(r.expected.total ?? null)})  date ${JSON.stringify(r.got.date ?? null)} (truth ${JSON.stringify(r.expected.date ?? null)})`,
      );
  }
  const flagged = report.results.filter((r) => r.needsReview);
  if (options.flags && flagged.length > 0) {
    lines.push('');
    lines.push(`flagged: ${flagged.length} receipts (half, id, reasons, total and date)`);
    for (const r of flagged) {
      const right = keyFieldsRight(r) ? 'right' : 'WRONG';
      lines.push(
        `  ${r.index % 2 === 0 ? 'even' : 'odd '}  ${r.id}  ${r.reviewReasons.join(', ') || '(failed)'}  ${right}`,
      );
    }
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
