import { describe, expect, it } from 'vitest';
import {
  CorrectionRuleStore,
  Corrections,
  TABLES,
  correctItems,
  correctMerchant,
  correctionKey,
  itemCorrections,
  ruleOf,
  type AnalysisResult,
  type ItemRow,
  type LearntCorrection,
} from '../src';
import { MAX_CORRECTION_RULES, type CorrectionRule } from '../src/contract/corrections';
import { MemoryTableStore } from './support/memory-table-store';

const NOW = new Date('2026-03-01T10:00:00Z');

const rule = (correction: LearntCorrection, at = NOW): CorrectionRule => {
  const made = ruleOf(correction, null, at);
  if (!made) throw new Error('no rule');
  return made;
};

const analysis = (merchant: string, items: string[], owner: string | null = null): AnalysisResult => ({
  analyzer: 'test',
  receipt: {
    doc_type: 'receipt',
    receipt_type: null,
    country_region: null,
    total_amount: 10,
    subtotal: null,
    currency_code: 'MYR',
    total_tax: null,
    transaction_date: '2026-02-01',
    transaction_time: null,
    total_checks_out: true,
  },
  merchant: {
    name: merchant,
    phone_number: null,
    postal_code: null,
    city: null,
    street_address: null,
    owning_corporation: owner,
  },
  items: items.map((description) => ({
    description,
    quantity: 1,
    unit_price: null,
    total_price: 5,
    brand: null,
    owning_corporation: null,
  })),
  taxes: [],
  confidence: {},
  raw: null,
});

const lkk: LearntCorrection = {
  kind: 'item',
  text: 'LKK SOS TIRAM 510G',
  shop: 'Tesco Extra Ampang',
  chain: 'Lotus Group',
  brand: { name: 'Lee Kum Kee', owner: 'Lee Kum Kee Group' },
};

describe('correctionKey', () => {
  it('reads two printings of the same text as one: case, accents, punctuation, spacing', () => {
    expect(correctionKey('LKK SOS-TIRAM 510G')).toBe(correctionKey('lkk sos tiram  510g'));
    expect(correctionKey('Café Crème')).toBe(correctionKey('CAFE CREME'));
    expect(correctionKey('DUTCH LADY')).toBe(correctionKey('DUTCHLADY'));
  });

  it('leaves out article numbers printed beside the text, and keeps short figures', () => {
    expect(correctionKey('9556001234567 MILO 1KG')).toBe(correctionKey('MILO 1KG'));
    expect(correctionKey('MILO 1KG')).not.toBe(correctionKey('MILO 2KG'));
  });

  it('keys text without Latin letters by itself, and blank text by nothing', () => {
    expect(correctionKey('老抽王')).toMatch(/^x[0-9a-f]{8}$/);
    expect(correctionKey('老抽王')).not.toBe(correctionKey('生抽王'));
    expect(correctionKey('  ')).toBe('');
  });
});

describe('applying item rules', () => {
  const corrections = new Corrections([rule(lkk)]);

  it('gives the same item text at the same shop the corrected brand, marked from the corrections', () => {
    const result = correctItems(analysis('TESCO EXTRA AMPANG', ['lkk sos tiram 510g', 'ROTI']), corrections);
    expect(result.items[0]).toMatchObject({
      description: 'lkk sos tiram 510g',
      brand: 'Lee Kum Kee',
      owning_corporation: 'Lee Kum Kee Group',
      from_corrections: true,
    });
    expect(result.items[1]).toMatchObject({ brand: null });
    expect(result.items[1]!.from_corrections).toBeUndefined();
  });

  it('applies at another shop of the same chain, and not at a shop of another', () => {
    const sameChain = correctItems(
      analysis('Tesco Kepong', ['LKK SOS TIRAM 510G'], 'Lotus Group'),
      corrections,
    );
    expect(sameChain.items[0]).toMatchObject({ brand: 'Lee Kum Kee', from_corrections: true });
    const other = correctItems(
      analysis('99 Speedmart', ['LKK SOS TIRAM 510G'], 'Speedmart Group'),
      corrections,
    );
    expect(other.items[0]).toMatchObject({ brand: null });
    expect(other).toEqual(analysis('99 Speedmart', ['LKK SOS TIRAM 510G'], 'Speedmart Group'));
  });

  it("overrides the dataset's brand and its doubt, and a removed brand stays removed", () => {
    const read = analysis('Tesco Extra Ampang', ['LKK SOS TIRAM 510G', 'SOS CILI']);
    read.items[0] = { ...read.items[0]!, brand: 'Lee', brand_unsure: true };
    read.items[1] = { ...read.items[1]!, brand: 'Life', owning_corporation: 'Life Food' };
    const noBrand = rule({ ...lkk, text: 'SOS CILI', brand: { name: null, owner: null } });
    const result = correctItems(read, new Corrections([rule(lkk), noBrand]));
    expect(result.items[0]).toMatchObject({ brand: 'Lee Kum Kee', from_corrections: true });
    expect(result.items[0]!.brand_unsure).toBeUndefined();
    expect(result.items[1]).toMatchObject({ brand: null, owning_corporation: null, from_corrections: true });
  });

  it('follows a corrected description to a rule made on it later', () => {
    const renamed = rule({ ...lkk, brand: undefined, description: 'Oyster sauce 510g' });
    const branded = rule(
      { ...lkk, text: 'Oyster sauce 510g', brand: { name: 'Lee Kum Kee', owner: null } },
      new Date('2026-03-02T00:00:00Z'),
    );
    const result = correctItems(
      analysis('Tesco Extra Ampang', ['LKK SOS TIRAM 510G']),
      new Corrections([renamed, branded]),
    );
    expect(result.items[0]).toMatchObject({ description: 'Oyster sauce 510g', brand: 'Lee Kum Kee' });
  });
});

describe('applying merchant rules', () => {
  it('renames the same spelling, follows a rename of the name it gave, and stops at a loop', () => {
    const first = rule({ kind: 'merchant', text: 'TESC0 STORES', merchantName: 'Tesco' });
    const second = rule({ kind: 'merchant', text: 'Tesco', merchantName: 'Tesco Extra Ampang' });
    const corrections = new Corrections([first, second]);
    const result = correctMerchant(analysis('tesc0 stores', []), corrections);
    expect(result.merchant).toMatchObject({ name: 'Tesco Extra Ampang', from_corrections: true });
    expect(correctMerchant(analysis('Giant', []), corrections).merchant.from_corrections).toBeUndefined();

    const back = rule({ kind: 'merchant', text: 'Tesco Extra Ampang', merchantName: 'TESC0 STORES' });
    const loop = new Corrections([first, second, back]);
    expect(loop.merchantName('TESC0 STORES')).toBeNull();
  });
});

describe('what a correction teaches', () => {
  const item = (over: Partial<ItemRow>): ItemRow => ({
    item_id: 'u~f.jpg~001',
    receipt_id: 'u~f.jpg',
    description: 'NESC CLASSIC 200G',
    quantity: 1,
    unit_price: null,
    total_price: 12.9,
    currency_code: 'MYR',
    user_id: 'u',
    brand: null,
    owning_corporation: null,
    ...over,
  });

  it('keys a changed brand or description by the text as it was read, at the shop and its chain', () => {
    const learnt = itemCorrections(
      [item({}), item({ item_id: 'u~f.jpg~002', description: 'ROTI' })],
      [
        item({ brand: 'Nescafé', owning_corporation: 'Nestlé' }),
        item({ item_id: 'u~f.jpg~002', description: 'ROTI' }),
      ],
      { name: 'Jaya Grocer', owning_corporation: null },
    );
    expect(learnt).toEqual([
      {
        kind: 'item',
        text: 'NESC CLASSIC 200G',
        shop: 'Jaya Grocer',
        chain: null,
        brand: { name: 'Nescafé', owner: 'Nestlé' },
      },
    ]);
  });

  it('learns nothing from new items, unchanged ones, or an unread shop', () => {
    expect(itemCorrections([], [item({ brand: 'Nescafé' })], { name: 'Jaya Grocer' })).toEqual([]);
    const unread = itemCorrections([item({})], [item({ brand: 'Nescafé' })], { name: 'Unknown Merchant' });
    expect(unread.map((c) => ruleOf(c, null, NOW))).toEqual([null]);
  });

  it('keeps the brand a rule set when only the description is corrected later', () => {
    const before = rule(lkk);
    const after = ruleOf({ ...lkk, brand: undefined, description: 'Oyster sauce' }, before, NOW);
    expect(after).toMatchObject({
      id: before.id,
      sets_brand: true,
      brand: 'Lee Kum Kee',
      description: 'Oyster sauce',
    });
  });

  it('makes no merchant rule from a spelling to itself', () => {
    expect(ruleOf({ kind: 'merchant', text: 'TESCO', merchantName: 'Tesco' }, null, NOW)).toBeNull();
  });
});

describe('keeping rules', () => {
  it('keeps at most MAX_CORRECTION_RULES per person, the least recently set going first', async () => {
    const store = new MemoryTableStore();
    await store.createTable(TABLES.users);
    const rules = new CorrectionRuleStore(store);
    const merchant = (n: number): LearntCorrection => ({
      kind: 'merchant',
      text: `SHOP ${n}`,
      merchantName: `Shop number ${n}`,
    });
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n));
    await rules.learn('ann', [merchant(0)], at(0));
    await rules.learn(
      'ann',
      Array.from({ length: MAX_CORRECTION_RULES - 1 }, (_, i) => merchant(i + 1)),
      at(1),
    );
    await rules.learn('bob', [merchant(0)], at(1));
    expect(await rules.list('ann')).toHaveLength(MAX_CORRECTION_RULES);

    await rules.learn('ann', [merchant(MAX_CORRECTION_RULES)], at(2));
    const kept = await rules.list('ann');
    expect(kept).toHaveLength(MAX_CORRECTION_RULES);
    expect(kept[0]!.text).toBe(`SHOP ${MAX_CORRECTION_RULES}`);
    expect(kept.some((r) => r.text === 'SHOP 0')).toBe(false);
    // Another person's rules are theirs to keep.
    expect((await rules.list('bob')).map((r) => r.text)).toEqual(['SHOP 0']);
  });
});
