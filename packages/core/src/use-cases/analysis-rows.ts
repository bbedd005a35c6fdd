import { totalChecksOut, type AnalysisResult, type AnalyzedItem } from '../analysis';
import { EDITABLE_RECEIPT_FIELDS } from '../contract/edits';
import type { ReanalysisChange, Tax } from '../entities';
import { documentUrlFor, itemIdFor, normaliseName } from '../repository/keys';
import type { ItemRow, MerchantRow, ReceiptRow } from '../repository/rows';
import { assessReview, needsReview, uploadDateFor, type ReviewAssessment } from '../review';

/*
 * An analysis as the rows the scan worker writes: the receipt, its items and taxes, and the brand
 * and corporation dictionary entries. Plain data in and out; the writes are in process-scan.ts.
 */

/** Whitespace collapsed and trimmed; null for nothing left. */
export const clean = (value: string | null | undefined): string | null => {
  const trimmed = value?.replace(/\s+/g, ' ').trim();
  return trimmed ? trimmed : null;
};

/** Which receipt the rows belong to. */
export interface ReceiptIds {
  userId: string;
  receiptId: string;
}

/**
 * Whether a person edited the items of the receipt analysed before: they are kept as they are then,
 * and the analysis's items are not written.
 * @param previous - the receipt's row from an earlier analysis, if any
 */
export function keepsEditedItems(previous: ReceiptRow | null): boolean {
  return previous?.edited?.includes('items') ?? false;
}

/**
 * The currency of the receipt and its rows: the one a person set, else the analysis's (upper case).
 * @param result - the analysis
 * @param previous - the receipt's row from an earlier analysis, if any
 */
export function receiptCurrency(result: AnalysisResult, previous: ReceiptRow | null): string | null {
  return previous?.edited?.includes('currency_code')
    ? previous.currency_code
    : (clean(result.receipt.currency_code)?.toUpperCase() ?? null);
}

/**
 * The item rows of an analysis, numbered in reading order.
 * @param result - the analysis
 * @param ids - user and receipt
 * @param currency - the receipt's currency
 */
export function itemRowsOf(result: AnalysisResult, ids: ReceiptIds, currency: string | null): ItemRow[] {
  return result.items.map((item, i) => ({
    item_id: itemIdFor(ids.receiptId, i),
    receipt_id: ids.receiptId,
    description: clean(item.description) ?? '',
    unit_price: item.unit_price,
    quantity: item.quantity,
    total_price: item.total_price,
    currency_code: currency,
    user_id: ids.userId,
    brand: clean(item.brand),
    ...(item.brand_unsure && clean(item.brand) ? { brand_unsure: true } : {}),
    ...(item.from_corrections ? { from_corrections: true } : {}),
    product_type: clean(item.product_type),
    product_identifier: clean(item.product_identifier),
    vectors: null,
    owning_corporation: clean(item.owning_corporation),
  }));
}

/**
 * The tax rows of an analysis.
 * @param result - the analysis
 * @param ids - user and receipt
 * @param currency - the receipt's currency
 */
export function taxRowsOf(result: AnalysisResult, ids: ReceiptIds, currency: string | null): Tax[] {
  return result.taxes.map((tax) => ({
    receipt_id: ids.receiptId,
    description: clean(tax.description) ?? '',
    rate: tax.rate,
    amount: tax.amount,
    currency_code: currency,
    user_id: ids.userId,
  }));
}

/**
 * The dictionary entries the receipt names: each brand with the owner its first item gives (or a
 * later one, while none is known), and the corporations owning those brands or the merchant.
 * @param items - the receipt's item rows
 * @param merchant - the receipt's merchant row
 */
export function dictionaryEntriesOf(
  items: ItemRow[],
  merchant: MerchantRow,
): { brands: Map<string, string | null>; corporations: Set<string> } {
  const brands = new Map<string, string | null>();
  for (const item of items)
    if (item.brand) brands.set(item.brand, brands.get(item.brand) ?? item.owning_corporation);
  const corporations = new Set<string>();
  for (const owner of brands.values()) if (owner) corporations.add(owner);
  if (merchant.owning_corporation) corporations.add(merchant.owning_corporation);
  return { brands, corporations };
}

/** What {@link receiptRowOf} builds the receipt row from. */
export interface ReceiptRowInput {
  result: AnalysisResult;
  userId: string;
  fileName: string;
  receiptId: string;
  merchant: MerchantRow;
  currency: string | null;
  /** The item rows the receipt has after this analysis (its own, or those a person kept). */
  items: ItemRow[];
  analyzedAt: string;
  /** The stored image: its size and SHA-256 (hex). */
  image: { bytes: number; sha256: string };
  /** The receipt's row from an earlier analysis, if any: what a person set there stays. */
  previous: ReceiptRow | null;
  now: Date;
  /**
   * The person's day of the upload (`YYYY-MM-DD`, see {@link uploadDayOf}): the date of a receipt
   * that prints none.
   */
  uploadDay?: string | null;
}

/**
 * The person's day of an upload: the day their device gave with it, when it is a day within one of
 * the server's day of `uploadedAt` (time zones run from UTC-12 to UTC+14) or before it (a photo
 * kept on the device while offline); else the UTC day of `uploadedAt`; null without either.
 * @param uploadedAt - the queue entry's `uploaded_at` (ISO time)
 * @param deviceDay - the day the person's device sent with the upload, if any
 */
export function uploadDayOf(uploadedAt: string, deviceDay?: string | null): string | null {
  const at = new Date(uploadedAt);
  if (Number.isNaN(at.getTime())) return null;
  const utcDay = at.toISOString().slice(0, 10);
  const latest = new Date(at.getTime() + 86_400_000).toISOString().slice(0, 10);
  if (deviceDay && /^\d{4}-\d{2}-\d{2}$/.test(deviceDay) && deviceDay <= latest && deviceDay >= '1970-01-01')
    return deviceDay;
  return utcDay;
}

/**
 * The receipt row of an analysis; analysed again, the fields a person set keep their values (see
 * {@link keepEdits}) and "not a duplicate of" answers stay.
 * @param input - the analysis, the rows it goes with and the earlier row
 */
export function receiptRowOf(input: ReceiptRowInput): ReceiptRow {
  const { result, userId, fileName, merchant, items, previous } = input;
  const r = result.receipt;
  const receipt: ReceiptRow = {
    receipt_id: input.receiptId,
    doc_type: clean(r.doc_type),
    receipt_type: clean(r.receipt_type),
    country_region: clean(r.country_region),
    merchant_id: merchant.merchant_id,
    merchant_name: merchant.name,
    total_amount: r.total_amount,
    currency_code: input.currency,
    total_tax: r.total_tax,
    transaction_date: clean(r.transaction_date),
    transaction_time: clean(r.transaction_time),
    user_id: userId,
    document_url: documentUrlFor(userId, fileName),
    total_checks_out:
      typeof r.total_checks_out === 'boolean'
        ? r.total_checks_out
        : totalChecksOut(r.total_amount, result.items, r.total_tax, r.subtotal, r.adjustments),
    file_name: fileName,
    analyzed_at: input.analyzedAt,
    item_count: items.length,
    image_bytes: input.image.bytes,
    image_sha256: input.image.sha256,
    needs_review: result.needs_review ?? false,
    review_reasons: result.review_reasons ?? [],
    edited: [],
    reanalysis_changes: [],
    // The name is the rule's unless the receipt's merchant is one a person set for it.
    ...(result.merchant.from_corrections &&
    merchant.name_key === normaliseName(clean(result.merchant.name) ?? '')
      ? { merchant_from_corrections: true }
      : {}),
  };
  // Analysed again (the queue entry is then new), a receipt that prints no date keeps the date it
  // had: the first upload's day, or one set since.
  const uploadDay = previous?.transaction_date ?? input.uploadDay ?? null;
  const fromUpload = uploadDateFor(
    result,
    { needs_review: receipt.needs_review ?? false, review_reasons: receipt.review_reasons ?? [] },
    uploadDay,
  );
  if (fromUpload) {
    receipt.transaction_date = fromUpload.transaction_date;
    receipt.needs_review = fromUpload.assessment.needs_review;
    receipt.review_reasons = fromUpload.assessment.review_reasons;
  }
  if (previous) keepEdits(receipt, previous, items, result, input.now);
  receipt.not_duplicate_of = previous?.not_duplicate_of ?? [];
  return receipt;
}

/**
 * A receipt analysed again: the fields a person set keep their values, the total check and the
 * review flags follow the values kept, and `reanalysis_changes` lists what the new reading changed.
 */
function keepEdits(
  receipt: ReceiptRow,
  previous: ReceiptRow,
  items: ItemRow[],
  result: AnalysisResult,
  now: Date,
): void {
  const edited = new Set(previous.edited ?? []);
  const fields = receipt as unknown as Record<string, string | number | null>;
  const before = previous as unknown as Record<string, string | number | null>;
  for (const field of EDITABLE_RECEIPT_FIELDS) {
    if (field !== 'merchant_name' && edited.has(field)) fields[field] = before[field] ?? null;
  }
  receipt.edited = [...edited];
  const changes: ReanalysisChange[] = [];
  for (const field of EDITABLE_RECEIPT_FIELDS) {
    // The merchant is the same when its id is: a name on an older row may predate a rename.
    if (field === 'merchant_name' && receipt.merchant_id === previous.merchant_id) continue;
    if ((before[field] ?? null) !== (fields[field] ?? null)) {
      changes.push({ field, before: before[field] ?? null, after: fields[field] ?? null });
    }
  }
  if (!edited.has('items') && (previous.item_count ?? null) !== items.length) {
    changes.push({ field: 'items', before: previous.item_count ?? null, after: items.length });
  }
  receipt.reanalysis_changes = changes;
  if (edited.size === 0) return;
  const assessment = reviewAsItStands(receipt, items, result, now.toISOString().slice(0, 10));
  receipt.total_checks_out = totalChecksOut(
    receipt.total_amount,
    items,
    receipt.total_tax,
    result.receipt.subtotal,
    result.receipt.adjustments,
  );
  receipt.needs_review = assessment.needs_review;
  receipt.review_reasons = assessment.review_reasons;
}

/** Whether a path of an analysis's `confidence` is a value a person set on the receipt (`edited`). */
function setByPerson(path: string, edited: ReadonlySet<string>): boolean {
  if (path === 'items' || path.startsWith('items.')) return edited.has('items');
  if (path.startsWith('merchant.')) return edited.has('merchant_name') || edited.has('merchant');
  return edited.has(path.replace(/^receipt\./, ''));
}

/**
 * The review reasons of a receipt as it stands (after an edit, or analysed again under a person's
 * edits): its values and items now, with the analysis's evidence for the values the analyzer read.
 * A value a person set is theirs: its confidence and any contradiction the analyzer found in it no
 * longer count, and items a person edited count as surely read. Without a stored analysis the
 * receipt's own values are assessed alone. 'possible_duplicate' is left to the caller. A date taken
 * from the upload (`date_from_upload`) keeps its note until a person sets the date.
 *
 * @param analysis - the stored analysis of the receipt, or null when there is none
 * @param today - `YYYY-MM-DD`
 */
export function reviewAsItStands(
  receipt: ReceiptRow,
  items: ReadonlyArray<Pick<AnalyzedItem, 'total_price'>>,
  analysis: Pick<AnalysisResult, 'receipt' | 'confidence' | 'contradicted'> | null,
  today: string,
): ReviewAssessment {
  const edited = new Set(receipt.edited ?? []);
  const confidence = Object.fromEntries(
    Object.entries(analysis?.confidence ?? {}).filter(([path]) => !setByPerson(path, edited)),
  );
  const subtotal = analysis?.receipt.subtotal ?? null;
  const adjustments = analysis?.receipt.adjustments ?? [];
  const assessment = assessReview(
    {
      receipt: {
        ...receipt,
        subtotal,
        adjustments,
        total_checks_out: totalChecksOut(
          receipt.total_amount,
          [...items],
          receipt.total_tax,
          subtotal,
          adjustments,
        ),
      },
      items: items.map((i) => ({
        description: '',
        quantity: null,
        unit_price: null,
        total_price: i.total_price,
      })),
      confidence,
      contradicted: (analysis?.contradicted ?? []).filter((path) => !setByPerson(path, edited)),
    },
    today,
  );
  if (
    receipt.review_reasons?.includes('date_from_upload') &&
    receipt.transaction_date !== null &&
    !edited.has('transaction_date')
  ) {
    // The day is the upload's, not one read: how far it lies from today says nothing of a misreading.
    const reasons = [
      ...assessment.review_reasons.filter((r) => r !== 'future_date' && r !== 'old_date'),
      'date_from_upload' as const,
    ];
    return { needs_review: needsReview(reasons), review_reasons: reasons };
  }
  return assessment;
}
