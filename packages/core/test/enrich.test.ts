import { describe, expect, it } from 'vitest';
import { brandOwnerIn, enrichAnalysis, type AnalysisResult, type Enricher } from '../src';

/** A small dictionary enricher: brands by a word of the description, merchants by exact name. */
const enricher: Enricher = {
  brandFor(description, context) {
    if (/\bHEINZ\b/i.test(description))
      return { brand: 'Heinz', owning_corporation: 'The Kraft Heinz Company' };
    if (/\bHE1NZ\b/i.test(description))
      return { brand: 'Heinz', owning_corporation: 'The Kraft Heinz Company', unsure: true };
    if (/\bFINEST\b/i.test(description) && context?.merchant === 'TESCO')
      return { brand: 'Tesco Finest', owning_corporation: 'Tesco PLC' };
    if (/\bACME\b/i.test(description)) return { brand: 'Acme', owning_corporation: null };
    if (/\bFIZZO\b/i.test(description))
      return { brand: 'Fizzo', owning_corporation: context?.country === 'US' ? 'Pop Inc.' : 'Fizz Corp' };
    return null;
  },
  corporationForMerchant(name) {
    return name.toUpperCase() === 'TESCO' ? 'Tesco PLC' : null;
  },
};

function result(overrides: Partial<AnalysisResult> = {}): AnalysisResult {
  return {
    analyzer: 'test',
    receipt: {
      doc_type: 'receipt',
      receipt_type: null,
      country_region: null,
      total_amount: 3,
      subtotal: null,
      currency_code: 'GBP',
      total_tax: null,
      transaction_date: '2024-01-02',
      transaction_time: null,
      total_checks_out: true,
    },
    merchant: { name: 'TESCO', phone_number: null, postal_code: null, city: null, street_address: null },
    items: [
      { description: 'HEINZ KETCHUP 460G', quantity: 1, unit_price: 2, total_price: 2 },
      { description: 'LOOSE BANANAS', quantity: null, unit_price: null, total_price: 1 },
    ],
    taxes: [],
    confidence: { 'receipt.total_amount': 0.99 },
    raw: { any: 'thing' },
    ...overrides,
  };
}

describe('enrichAnalysis', () => {
  it("reads an item's brand with the receipt's merchant, and marks a weak reading unsure", () => {
    const out = enrichAnalysis(
      result({
        items: [
          { description: 'FINEST SOURDOUGH', quantity: 1, unit_price: 2, total_price: 2 },
          { description: 'HE1NZ BEANZ', quantity: 1, unit_price: 1, total_price: 1 },
        ],
      }),
      enricher,
    );
    expect(out.items.map((i) => [i.brand, i.owning_corporation, i.brand_unsure ?? false])).toEqual([
      ['Tesco Finest', 'Tesco PLC', false],
      ['Heinz', 'The Kraft Heinz Company', true],
    ]);
  });

  it("reads an item's brand with the receipt's country, for brands owned by others in some countries", () => {
    const fizz = [{ description: 'FIZZO 1L', quantity: 1, unit_price: 1, total_price: 1 }];
    const on = (country: string | null) =>
      enrichAnalysis(
        result({ items: fizz, receipt: { ...result().receipt, country_region: country } }),
        enricher,
      ).items[0]!.owning_corporation;
    expect(on('US')).toBe('Pop Inc.');
    expect(on('MY')).toBe('Fizz Corp');
  });

  it("chooses a brand's owner by country, and none when a split brand's country is not known", () => {
    const split = { owning_corporation: 'Fizz Corp', owners_by_country: { US: 'Pop Inc.' } };
    expect(brandOwnerIn(split, 'US')).toBe('Pop Inc.');
    expect(brandOwnerIn(split, 'us')).toBe('Pop Inc.');
    expect(brandOwnerIn(split, 'DE')).toBe('Fizz Corp');
    expect(brandOwnerIn(split, null)).toBeNull();
    expect(brandOwnerIn({ owning_corporation: 'Fizz Corp' }, null)).toBe('Fizz Corp');
  });

  it("sets each item's brand and owner, and the merchant's owner", () => {
    const out = enrichAnalysis(result(), enricher);
    expect(out.items[0]).toMatchObject({ brand: 'Heinz', owning_corporation: 'The Kraft Heinz Company' });
    expect(out.merchant.owning_corporation).toBe('Tesco PLC');
  });

  it('leaves unknown brands and merchants null rather than guessing', () => {
    const out = enrichAnalysis(result({ merchant: { ...result().merchant, name: 'CORNER SHOP' } }), enricher);
    expect(out.items[1]).toMatchObject({ brand: null, owning_corporation: null });
    expect(out.merchant.owning_corporation).toBeNull();
  });

  it('keeps a brand whose owner is unknown, with a null owner', () => {
    const out = enrichAnalysis(
      result({ items: [{ description: 'ACME GLUE', quantity: null, unit_price: null, total_price: 1 }] }),
      enricher,
    );
    expect(out.items[0]).toMatchObject({ brand: 'Acme', owning_corporation: null });
  });

  it('keeps a brand the analyzer gave when the dictionary has none, and empties blank ones', () => {
    const out = enrichAnalysis(
      result({
        items: [
          {
            description: 'HOUSE BLEND',
            quantity: null,
            unit_price: null,
            total_price: 4,
            brand: 'Own Label',
          },
          {
            description: 'MISC',
            quantity: null,
            unit_price: null,
            total_price: 1,
            brand: '  ',
            owning_corporation: 'X',
          },
        ],
      }),
      enricher,
    );
    expect(out.items[0]).toMatchObject({ brand: 'Own Label', owning_corporation: null });
    expect(out.items[1]).toMatchObject({ brand: null, owning_corporation: null });
  });

  it('handles a merchant without a name and items without a description', () => {
    const out = enrichAnalysis(
      result({
        merchant: { name: null, phone_number: null, postal_code: null, city: null, street_address: null },
        items: [{ description: '', quantity: null, unit_price: null, total_price: 1 }],
      }),
      enricher,
    );
    expect(out.merchant.owning_corporation).toBeNull();
    expect(out.items[0]!.brand).toBeNull();
  });

  it('does not change its input and keeps everything else', () => {
    const input = result();
    const copy = structuredClone(input);
    const out = enrichAnalysis(input, enricher);
    expect(input).toEqual(copy);
    expect(out.receipt).toEqual(input.receipt);
    expect(out.raw).toBe(input.raw);
    expect(out.confidence).toEqual(input.confidence);
    expect(out.items.map((i) => i.total_price)).toEqual([2, 1]);
  });
});
