import { describe, expect, it } from 'vitest';
import { buildAppData, type ItemRow, type MerchantRow, type ReceiptRow } from '../src';

const receipt = (id: string, over: Partial<ReceiptRow>): ReceiptRow => ({
  receipt_id: `u~${id}`,
  doc_type: 'receipt',
  receipt_type: 'retail',
  country_region: 'BE',
  merchant_id: 'm1',
  merchant_name: 'Shop',
  total_amount: 10,
  currency_code: 'EUR',
  total_tax: null,
  transaction_date: '2024-01-01',
  transaction_time: '10:00:00',
  user_id: 'u',
  document_url: `blob://u/${id}`,
  total_checks_out: true,
  file_name: id,
  analyzed_at: '',
  ...over,
});
const merchant = (id: string, name: string): MerchantRow => ({
  merchant_id: id,
  name,
  phone_number: null,
  postal_code: null,
  city: null,
  street_address: null,
  user_id: 'u',
  owning_corporation: null,
  name_key: name.toLowerCase(),
});
const item = (receiptId: string, n: number, over: Partial<ItemRow>): ItemRow => ({
  item_id: `${receiptId}~${n}`,
  receipt_id: receiptId,
  description: 'thing',
  unit_price: 1,
  quantity: 1,
  total_price: 1,
  currency_code: 'EUR',
  user_id: 'u',
  brand: null,
  owning_corporation: null,
  ...over,
});

describe('buildAppData', () => {
  it('sums merchants and brands, joins items to their receipt, and lists owners as corporations', () => {
    const data = buildAppData({
      version: 'v1',
      receipts: [
        receipt('a.jpg', { total_amount: 12.5, transaction_date: '2024-01-02' }),
        receipt('b.jpg', { total_amount: 7.25, transaction_date: '2024-03-04' }),
        receipt('c.jpg', { merchant_id: 'm2', merchant_name: 'Other', total_amount: 3 }),
      ],
      merchants: [merchant('m1', 'Shop'), merchant('m2', 'Other')],
      items: [
        item('u~a.jpg', 1, {
          brand: 'Coca-Cola',
          owning_corporation: 'The Coca-Cola Company',
          total_price: 2.1,
        }),
        item('u~b.jpg', 1, { brand: 'Coca-Cola', total_price: 1.2 }),
        item('u~b.jpg', 2, { brand: 'Heinz', owning_corporation: 'Kraft Heinz', total_price: 5 }),
        item('u~c.jpg', 1, { brand: null }),
      ],
    });
    expect(data.version).toBe('v1');
    const shop = data.reportMerchants.find((m) => m.merchant_id === 'm1')!;
    expect(shop.merchant_total_amount).toBe(19.75);
    expect(shop.merchant_first_visit).toBe('2024-01-02');
    expect(shop.merchant_last_visit).toBe('2024-03-04');
    expect(shop.merchant_region).toBe('BE');
    expect(data.brands.map((b) => [b.name, b.purchases, b.total, b.owning_corporation])).toEqual([
      ['Heinz', 1, 5, 'Kraft Heinz'],
      ['Coca-Cola', 2, 3.3, 'The Coca-Cola Company'],
    ]);
    expect(data.corporations).toEqual([{ name: 'Kraft Heinz' }, { name: 'The Coca-Cola Company' }]);
    const heinz = data.reportProductItems.find((i) => i.brand === 'Heinz')!;
    expect(heinz.merchant_name).toBe('Shop');
    expect(heinz.receipt_transaction_date).toBe('2024-03-04');
    expect(data.reportReceipts.map((r) => r.receipt_id)[0]).toBe('u~b.jpg');
    expect(data.reportReceipts[0]).not.toHaveProperty('file_name');
  });

  it('never adds different currencies: totals per currency, main currency in total', () => {
    const data = buildAppData({
      version: 'v',
      receipts: [
        receipt('a.jpg', { currency_code: 'EUR', total_amount: 10 }),
        receipt('b.jpg', { currency_code: 'EUR', total_amount: 5 }),
        receipt('c.jpg', { currency_code: 'USD', total_amount: 100 }),
      ],
      merchants: [merchant('m1', 'Shop')],
      items: [
        item('u~a.jpg', 1, { brand: 'X', currency_code: 'EUR', total_price: 2 }),
        item('u~c.jpg', 1, { brand: 'X', currency_code: 'USD', total_price: 50 }),
      ],
    });
    const x = data.brands[0]!;
    expect(x.total).toBe(2);
    expect(x.totals_by_currency).toEqual({ EUR: 2, USD: 50 });
    const shop = data.reportMerchants[0]!;
    expect(shop.merchant_total_amount).toBe(15);
    expect(shop.merchant_currency_code).toBe('EUR');
    expect(shop.merchant_totals_by_currency).toEqual({ EUR: 15, USD: 100 });
  });

  it('leaves out items of a receipt that is not there and merchants without receipts', () => {
    const data = buildAppData({
      version: 'v',
      receipts: [receipt('a.jpg', {})],
      merchants: [merchant('m1', 'Shop'), merchant('m9', 'Gone')],
      items: [item('u~a.jpg', 1, { brand: 'B' }), item('u~half-written.jpg', 1, { brand: 'B' })],
    });
    expect(data.reportProductItems).toHaveLength(1);
    expect(data.brands[0]!.purchases).toBe(1);
    expect(data.reportMerchants.map((m) => m.merchant_id)).toEqual(['m1']);
  });
});
