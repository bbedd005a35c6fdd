import { describe, expect, it } from 'vitest';
import {
  buildAppData,
  buildReportIndex,
  dashboardOf,
  queryReportIndex,
  type ItemRow,
  type ReceiptRow,
} from '../src';
import { withShopOwners, type CorporationReportRow, type MerchantReportRow } from '../src/contract/reports';
import { merchantRow } from './support/report-rows';

/**
 * "Which corporations get my money": through the shops they own and through their brands, shown
 * apart, so a brand bought in its owner's shop (Lidl's Milbona at Lidl) is never counted twice.
 */
const receipt = (id: string, merchant: string, total: number): ReceiptRow => ({
  receipt_id: `u~${id}`,
  doc_type: 'receipt',
  receipt_type: 'grocery',
  country_region: 'DE',
  merchant_id: merchant,
  merchant_name: merchant,
  total_amount: total,
  currency_code: 'EUR',
  total_tax: null,
  transaction_date: '2024-03-01',
  transaction_time: '10:00:00',
  user_id: 'u',
  document_url: `blob://u/${id}`,
  total_checks_out: true,
  file_name: id,
  analyzed_at: '',
});
let n = 0;
const item = (receiptId: string, brand: string | null, owner: string | null, price: number): ItemRow => ({
  item_id: `u~${receiptId}~${(n += 1)}`,
  receipt_id: `u~${receiptId}`,
  description: brand ?? 'LOOSE BANANAS',
  unit_price: price,
  quantity: 1,
  total_price: price,
  currency_code: 'EUR',
  user_id: 'u',
  brand,
  owning_corporation: owner,
});

function account() {
  return buildReportIndex(
    buildAppData({
      version: 'v1',
      merchants: [
        { ...merchantRow('Lidl', 'Lidl', 'Berlin'), owning_corporation: 'Schwarz Gruppe' },
        { ...merchantRow('Kaufland', 'Kaufland', 'Berlin'), owning_corporation: 'Schwarz Gruppe' },
        { ...merchantRow('Rewe', 'REWE', 'Berlin'), owning_corporation: 'REWE Group' },
        merchantRow('Kiosk', 'Kiosk am Eck', 'Berlin'),
      ],
      receipts: [
        receipt('a', 'Lidl', 10),
        receipt('b', 'Kaufland', 5),
        receipt('c', 'Rewe', 3),
        receipt('d', 'Kiosk', 2),
      ],
      items: [
        item('a', 'Milbona', 'Schwarz Gruppe', 1.5),
        item('a', 'Coca-Cola', 'The Coca-Cola Company', 2),
        item('a', null, null, 6.5),
        item('b', null, null, 5),
        item('c', 'Coca-Cola', 'The Coca-Cola Company', 3),
        item('d', 'Coca-Cola', 'The Coca-Cola Company', 2),
      ],
    }),
  );
}

describe('corporations through the shops and through the brands', () => {
  const rows = queryReportIndex(account(), { table: 'corporations', pageSize: 50 })
    .rows as CorporationReportRow[];
  const byName = new Map(rows.map((r) => [r.name, r]));

  it("counts a shop owner's receipts apart from its brands", () => {
    const schwarz = byName.get('Schwarz Gruppe');
    expect([schwarz?.purchases, schwarz?.total, schwarz?.brands]).toEqual([1, 1.5, ['Milbona']]);
    expect(schwarz?.through_shops).toEqual({
      merchants: ['Kaufland', 'Lidl'],
      visits: 2,
      total: 15,
      currency_code: 'EUR',
      totals_by_currency: { EUR: 15 },
    });
  });

  it('lists an owner of shops none of whose brands was bought', () => {
    const rewe = byName.get('REWE Group');
    expect([rewe?.purchases, rewe?.total, rewe?.brands]).toEqual([0, 0, []]);
    expect(rewe?.through_shops?.total).toBe(3);
  });

  it('leaves a brand owner without shops, and a shop that is no chain, out of the shop figures', () => {
    const coke = byName.get('The Coca-Cola Company');
    expect([coke?.purchases, coke?.total, coke?.through_shops]).toEqual([3, 7, undefined]);
    expect(rows.some((r) => r.through_shops?.merchants.includes('Kiosk am Eck'))).toBe(false);
  });

  it("keeps the table's money totals to the brands, so nothing is counted twice", () => {
    const page = queryReportIndex(account(), { table: 'corporations', pageSize: 50 });
    expect(page.totals).toEqual({ EUR: 8.5 });
  });

  it("shows both on Home's top corporations", () => {
    const top = dashboardOf(account(), 'month', '2024-03-20').topCorporations;
    const schwarz = top.find((c) => c.name === 'Schwarz Gruppe');
    expect([schwarz?.count, schwarz?.total]).toEqual([1, 1.5]);
    expect(schwarz?.through_shops).toEqual({
      count: 2,
      total: 15,
      currency_code: 'EUR',
      totals_by_currency: { EUR: 15 },
    });
    expect(top.find((c) => c.name === 'The Coca-Cola Company')?.through_shops).toBeUndefined();
  });

  it('joins merchant rows with the corporation rows of the same filter', () => {
    const merchant = (
      name: string,
      owner: string | null,
      visits: number,
      eur: number,
    ): MerchantReportRow => ({
      merchant_id: name,
      name,
      city: null,
      owning_corporation: owner,
      visits,
      total: eur,
      currency_code: 'EUR',
      totals_by_currency: { EUR: eur },
      first_visit: null,
      last_visit: null,
    });
    const joined = withShopOwners(
      [
        {
          name: 'Tesco PLC',
          brands: ['Tesco'],
          purchases: 2,
          total: 4,
          currency_code: 'GBP',
          totals_by_currency: { GBP: 4 },
        },
      ],
      [
        merchant('Tesco Metro', 'Tesco PLC', 1, 0),
        merchant('Tesco Extra', 'Tesco PLC', 2, 30.2),
        merchant('Corner', null, 5, 9),
      ],
    );
    expect(joined).toEqual([
      {
        name: 'Tesco PLC',
        brands: ['Tesco'],
        purchases: 2,
        total: 4,
        currency_code: 'GBP',
        totals_by_currency: { GBP: 4 },
        through_shops: {
          merchants: ['Tesco Extra', 'Tesco Metro'],
          visits: 3,
          total: 30.2,
          currency_code: 'EUR',
          totals_by_currency: { EUR: 30.2 },
        },
      },
    ]);
  });
});
