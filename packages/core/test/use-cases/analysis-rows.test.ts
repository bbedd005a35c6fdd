import { describe, expect, it } from 'vitest';
import { itemIdFor, receiptIdFor, type AnalysisResult, type MerchantRow, type ReceiptRow } from '../../src';
import {
  clean,
  dictionaryEntriesOf,
  itemRowsOf,
  keepsEditedItems,
  receiptCurrency,
  receiptRowOf,
  reviewAsItStands,
  taxRowsOf,
  uploadDayOf,
} from '../../src/use-cases/analysis-rows';
import { itemToRow, rowToItem } from '../../src/repository/rows';

const ids = { userId: 'user-1', receiptId: receiptIdFor('user-1', 'a.jpg') };
const now = new Date('2025-03-10T12:00:00Z');

function analysis(over: Partial<AnalysisResult> = {}): AnalysisResult {
  return {
    analyzer: 'ocr',
    receipt: {
      doc_type: 'receipt',
      receipt_type: ' Supplies ',
      country_region: 'AT',
      total_amount: 7.5,
      subtotal: null,
      currency_code: 'eur',
      total_tax: null,
      transaction_date: '2025-03-09',
      transaction_time: '10:15:00',
      total_checks_out: true,
    },
    merchant: { name: 'Lidl', phone_number: null, postal_code: '1010', city: 'Wien', street_address: null },
    items: [
      {
        description: ' Milk\n 1 l ',
        quantity: 2,
        unit_price: 1.25,
        total_price: 2.5,
        brand: 'Alpenmilch',
        owning_corporation: 'Dairy AG',
      },
      {
        description: 'Bread',
        quantity: 1,
        unit_price: 5,
        total_price: 5,
        brand: ' ',
        product_type: 'Bakery',
      },
    ],
    taxes: [{ description: 'VAT 10% ', rate: 10, amount: 0.68 }],
    confidence: {},
    raw: null,
    needs_review: false,
    review_reasons: [],
    ...over,
  };
}

const merchant: MerchantRow = {
  merchant_id: 'lidl-1',
  name: 'Lidl',
  phone_number: null,
  postal_code: '1010',
  city: 'Wien',
  street_address: null,
  user_id: 'user-1',
  owning_corporation: 'Schwarz Gruppe',
  vectors: null,
  name_key: 'lidl',
};

function receipt(
  result: AnalysisResult,
  previous: ReceiptRow | null = null,
  uploadDay: string | null = null,
): ReceiptRow {
  const currency = receiptCurrency(result, previous);
  return receiptRowOf({
    result,
    userId: 'user-1',
    fileName: 'a.jpg',
    receiptId: ids.receiptId,
    merchant,
    currency,
    items: itemRowsOf(result, ids, currency),
    analyzedAt: now.toISOString(),
    image: { bytes: 1234, sha256: 'abc' },
    previous,
    now,
    uploadDay,
  });
}

describe('analysis to rows', () => {
  it('cleans text: whitespace collapsed and trimmed, nothing left is null', () => {
    expect(clean('  Corner \n Shop ')).toBe('Corner Shop');
    expect(clean(' \t ')).toBeNull();
    expect(clean(undefined)).toBeNull();
  });

  it('writes items numbered in reading order, in the receipt currency, with cleaned text', () => {
    const items = itemRowsOf(analysis(), ids, 'EUR');
    expect(items.map((i) => i.item_id)).toEqual([itemIdFor(ids.receiptId, 0), itemIdFor(ids.receiptId, 1)]);
    expect(items[0]).toMatchObject({
      receipt_id: ids.receiptId,
      user_id: 'user-1',
      description: 'Milk 1 l',
      quantity: 2,
      unit_price: 1.25,
      total_price: 2.5,
      currency_code: 'EUR',
      brand: 'Alpenmilch',
      owning_corporation: 'Dairy AG',
    });
    expect(items[1]).toMatchObject({ brand: null, product_type: 'Bakery', owning_corporation: null });
    expect(items.some((i) => 'brand_unsure' in i)).toBe(false);
  });

  it('keeps a weakly read brand marked unsure, and the mark only with a brand', () => {
    const base = analysis();
    const items = itemRowsOf(
      {
        ...base,
        items: [
          { ...base.items[0]!, brand_unsure: true },
          { ...base.items[1]!, brand: null, brand_unsure: true },
        ],
      },
      ids,
      'EUR',
    );
    expect(items.map((i) => [i.brand, i.brand_unsure])).toEqual([
      ['Alpenmilch', true],
      [null, undefined],
    ]);
  });

  it('writes taxes in the receipt currency', () => {
    expect(taxRowsOf(analysis(), ids, 'EUR')).toEqual([
      {
        receipt_id: ids.receiptId,
        user_id: 'user-1',
        description: 'VAT 10%',
        rate: 10,
        amount: 0.68,
        currency_code: 'EUR',
      },
    ]);
  });

  it('takes the currency a person set over the reading, and upper-cases the reading otherwise', () => {
    expect(receiptCurrency(analysis(), null)).toBe('EUR');
    const edited = { currency_code: 'CHF', edited: ['currency_code'] } as ReceiptRow;
    expect(receiptCurrency(analysis(), edited)).toBe('CHF');
    expect(receiptCurrency(analysis(), { currency_code: 'CHF', edited: [] } as unknown as ReceiptRow)).toBe(
      'EUR',
    );
  });

  it('keeps items only when a person edited them', () => {
    expect(keepsEditedItems(null)).toBe(false);
    expect(keepsEditedItems({ edited: ['total_amount'] } as ReceiptRow)).toBe(false);
    expect(keepsEditedItems({ edited: ['items'] } as ReceiptRow)).toBe(true);
  });

  it('lists each brand once with a known owner, and the corporations of brands and merchant', () => {
    const items = itemRowsOf(
      analysis({
        items: [
          { description: 'a', quantity: 1, unit_price: 1, total_price: 1, brand: 'Milka' },
          {
            description: 'b',
            quantity: 1,
            unit_price: 1,
            total_price: 1,
            brand: 'Milka',
            owning_corporation: 'Mondelez',
          },
          { description: 'c', quantity: 1, unit_price: 1, total_price: 1 },
        ],
      }),
      ids,
      'EUR',
    );
    const { brands, corporations } = dictionaryEntriesOf(items, merchant);
    expect([...brands]).toEqual([['Milka', 'Mondelez']]);
    expect([...corporations].sort()).toEqual(['Mondelez', 'Schwarz Gruppe']);
  });

  it('builds the receipt row from the reading, the merchant and the image', () => {
    expect(receipt(analysis())).toMatchObject({
      receipt_id: ids.receiptId,
      user_id: 'user-1',
      file_name: 'a.jpg',
      document_url: 'blob://user-1/a.jpg',
      merchant_id: 'lidl-1',
      merchant_name: 'Lidl',
      receipt_type: 'Supplies',
      total_amount: 7.5,
      currency_code: 'EUR',
      transaction_date: '2025-03-09',
      total_checks_out: true,
      item_count: 2,
      image_bytes: 1234,
      image_sha256: 'abc',
      analyzed_at: now.toISOString(),
      needs_review: false,
      edited: [],
      reanalysis_changes: [],
      not_duplicate_of: [],
    });
  });

  it('analysed again: keeps what a person set, lists what the new reading changed, re-checks the total', () => {
    const first = receipt(analysis());
    const previous: ReceiptRow = {
      ...first,
      total_amount: 9,
      edited: ['total_amount'],
      not_duplicate_of: [receiptIdFor('user-1', 'b.jpg')],
    };
    const again = receipt(
      analysis({ receipt: { ...analysis().receipt, total_amount: 8, transaction_date: '2025-03-08' } }),
      previous,
    );
    expect(again.total_amount).toBe(9);
    expect(again.transaction_date).toBe('2025-03-08');
    expect(again.edited).toEqual(['total_amount']);
    expect(again.reanalysis_changes).toEqual([
      { field: 'transaction_date', before: '2025-03-09', after: '2025-03-08' },
    ]);
    // 2.50 + 5.00 does not make the 9.00 the person set.
    expect(again.total_checks_out).toBe(false);
    expect(again.needs_review).toBe(true);
    expect(again.review_reasons).toContain('total_check_fails');
    expect(again.not_duplicate_of).toEqual([receiptIdFor('user-1', 'b.jpg')]);
  });
});

describe('a receipt that prints no date', () => {
  const dateless = (over: Partial<AnalysisResult> = {}) =>
    analysis({
      receipt: { ...analysis().receipt, transaction_date: null },
      needs_review: true,
      review_reasons: ['no_date'],
      prints_date: false,
      ...over,
    });

  it('takes the day it was uploaded, noted as such, and does not need review for it', () => {
    const row = receipt(dateless(), null, '2025-03-10');
    expect(row.transaction_date).toBe('2025-03-10');
    expect(row.review_reasons).toEqual(['date_from_upload']);
    expect(row.needs_review).toBe(false);
  });

  it('still needs review for its other reasons', () => {
    const row = receipt(dateless({ review_reasons: ['no_date', 'total_check_fails'] }), null, '2025-03-10');
    expect(row.review_reasons).toEqual(['date_from_upload', 'total_check_fails']);
    expect(row.needs_review).toBe(true);
  });

  it('stays flagged when a date is printed but could not be read, or when no upload day is known', () => {
    const unread = receipt(dateless({ prints_date: true }), null, '2025-03-10');
    expect(unread).toMatchObject({ transaction_date: null, needs_review: true, review_reasons: ['no_date'] });
    const unknown = receipt(dateless({ prints_date: undefined }), null, '2025-03-10');
    expect(unknown.review_reasons).toEqual(['no_date']);
    expect(receipt(dateless(), null, null).review_reasons).toEqual(['no_date']);
  });

  it('keeps the first upload day when analysed again, and the note until a person sets the date', () => {
    const first = receipt(dateless(), null, '2025-03-10');
    const again = receipt(dateless(), first, '2025-04-02');
    expect(again.transaction_date).toBe('2025-03-10');
    expect(again.reanalysis_changes).toEqual([]);
    // Marked reviewed (the note cleared), then analysed again: still the first upload's day.
    const reviewed = { ...first, needs_review: false, review_reasons: [] };
    expect(receipt(dateless(), reviewed, '2025-04-02').transaction_date).toBe('2025-03-10');
    const edited = { ...first, total_amount: 7.5, edited: ['total_amount'] };
    expect(
      reviewAsItStands(edited, [{ total_price: 2.5 }, { total_price: 5 }], dateless(), '2025-03-09'),
    ).toEqual({
      needs_review: false,
      review_reasons: ['date_from_upload'],
    });
    const dated = { ...first, transaction_date: '2025-03-08', edited: ['transaction_date'] };
    expect(reviewAsItStands(dated, [], dateless(), '2025-03-11').review_reasons).toEqual([]);
  });

  it("takes the person's day sent with the upload, within a day ahead of the server's, else the UTC day", () => {
    expect(uploadDayOf('2025-03-10T23:30:00Z', '2025-03-11')).toBe('2025-03-11');
    expect(uploadDayOf('2025-03-10T01:00:00Z', '2025-03-09')).toBe('2025-03-09');
    expect(uploadDayOf('2025-03-10T01:00:00Z', '2025-03-12')).toBe('2025-03-10');
    expect(uploadDayOf('2025-03-10T01:00:00Z')).toBe('2025-03-10');
    expect(uploadDayOf('')).toBeNull();
  });
});

describe('a receipt with a cash rounding', () => {
  it("checks the items against the total through the analysis's rounding, also after an edit", () => {
    const read = analysis().receipt;
    const rounded = analysis({
      receipt: { ...read, total_amount: 7.7, adjustments: [{ kind: 'rounding', amount: -0.02 }] },
    });
    const row = { ...receipt(rounded), edited: ['items'] };
    const items = [{ total_price: 2.54 }, { total_price: 5.18 }];
    expect(reviewAsItStands(row, items, rounded, '2025-03-10')).toEqual({
      needs_review: false,
      review_reasons: [],
    });
    // Without the rounding read, the same items flag the total: the alarm the adjustment settles.
    const unread = analysis({ receipt: { ...read, total_amount: 7.7 } });
    expect(reviewAsItStands(row, items, unread, '2025-03-10').review_reasons).toEqual(['total_check_fails']);
  });
});

describe('an item row in the store', () => {
  it('keeps the unsure mark of its brand through a write and a read', () => {
    const [row] = itemRowsOf(
      { ...analysis(), items: [{ ...analysis().items[0]!, brand_unsure: true }] },
      ids,
      'EUR',
    );
    const stored = { ...itemToRow(row!), timestamp: '' } as Parameters<typeof rowToItem>[0];
    expect(rowToItem(stored)).toMatchObject({ brand: 'Alpenmilch', brand_unsure: true });
    const [plain] = itemRowsOf(analysis(), ids, 'EUR');
    expect(
      rowToItem({ ...itemToRow(plain!), timestamp: '' } as Parameters<typeof rowToItem>[0]),
    ).not.toHaveProperty('brand_unsure');
  });
});
