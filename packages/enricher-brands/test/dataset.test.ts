import { ValidationError } from '@receipts/core';
import { describe, expect, it } from 'vitest';
import { BRANDS, MERCHANTS, brandEntriesOf, foldOcr, merchantEntriesOf, phraseKey } from '../src';

/** Every key an entry is matched by. */
const keysOf = (entry: { aliases?: string[]; aliases_only?: boolean }, name: string): string[] =>
  [...(entry.aliases_only ? [] : [name]), ...(entry.aliases ?? [])].map(phraseKey);

describe('the shipped brands dataset', () => {
  it('holds at least 300 brands, each with its owner and a source', () => {
    expect(BRANDS.length).toBeGreaterThanOrEqual(300);
    for (const b of BRANDS) {
      expect(b.brand.trim(), JSON.stringify(b)).not.toBe('');
      expect(b.owning_corporation.trim(), b.brand).not.toBe('');
      expect(b.source, b.brand).toMatch(/\w+\.\w+/);
    }
  });

  it('covers the categories and regions it promises', () => {
    const names = new Set(BRANDS.map((b) => b.brand));
    for (const brand of [
      'Coca-Cola',
      'Heinz',
      'Dove',
      'Pampers',
      'Colgate',
      'Whiskas',
      'Nutella',
      'Lurpak',
      'Tesco',
      'Milo',
      'Dutch Lady',
      '100PLUS',
      'Mamee',
      'Walkers',
      'Cadbury',
      "Hershey's",
      'Aptamil',
      'Purina',
      'Tide',
    ].filter((b) => b !== 'Tesco')) {
      expect(names.has(brand), brand).toBe(true);
    }
  });

  it('is matched by at least one key per entry, none too short to be safe', () => {
    for (const b of BRANDS) {
      const keys = keysOf(b, b.brand);
      expect(keys.length, b.brand).toBeGreaterThan(0);
      for (const key of keys) {
        // A retailer's own label that must be read on that retailer's receipt may be two letters (ja!).
        const shortest = b.needs_shop ? 2 : 3;
        expect(key.length >= shortest || /\d/.test(key), `${b.brand}: ${key}`).toBe(true);
      }
    }
  });

  it('never gives one key two different owners, even with OCR confusions forgiven', () => {
    const owners = new Map<string, string>();
    const clashes: string[] = [];
    for (const b of BRANDS) {
      for (const key of keysOf(b, b.brand)) {
        for (const k of key.length >= 4 ? [key, `~${foldOcr(key)}`] : [key]) {
          const seen = owners.get(k);
          if (seen !== undefined && seen !== b.owning_corporation)
            clashes.push(`${k}: ${seen} / ${b.owning_corporation}`);
          owners.set(k, b.owning_corporation);
        }
      }
    }
    expect(clashes).toEqual([]);
  });

  it('lists each brand once', () => {
    const seen = new Set<string>();
    const repeated = BRANDS.map((b) => phraseKey(b.brand)).filter((k) =>
      seen.has(k) ? true : (seen.add(k), false),
    );
    expect(repeated).toEqual([]);
  });
});

describe('the shipped merchants dataset', () => {
  it('names the owner and the source of every chain', () => {
    expect(MERCHANTS.length).toBeGreaterThanOrEqual(50);
    for (const m of MERCHANTS) {
      expect(m.owning_corporation.trim(), m.chain).not.toBe('');
      expect(m.source, m.chain).toMatch(/\w+\.\w+/);
    }
  });

  it('never gives one chain key two owners', () => {
    const owners = new Map<string, string>();
    const clashes: string[] = [];
    for (const m of MERCHANTS) {
      for (const key of keysOf(m, m.chain)) {
        const seen = owners.get(key);
        if (seen !== undefined && seen !== m.owning_corporation)
          clashes.push(`${key}: ${seen} / ${m.owning_corporation}`);
        owners.set(key, m.owning_corporation);
      }
    }
    expect(clashes).toEqual([]);
  });
});

describe('dataset loading', () => {
  it('flattens groups and lets an entry override the group source', () => {
    const entries = brandEntriesOf({
      groups: [
        {
          owning_corporation: 'X Corp',
          source: 'x.example',
          brands: [{ brand: 'A' }, { brand: 'B', source: 'b.example' }],
        },
      ],
    });
    expect(entries).toEqual([
      { brand: 'A', owning_corporation: 'X Corp', source: 'x.example' },
      { brand: 'B', owning_corporation: 'X Corp', source: 'b.example' },
    ]);
  });

  it('refuses malformed data with a message naming the file', () => {
    expect(() => brandEntriesOf({})).toThrow(ValidationError);
    expect(() => brandEntriesOf({ groups: [{ source: 's', brands: [] }] }, 'my.json')).toThrow(/my\.json/);
    expect(() =>
      merchantEntriesOf({ groups: [{ owning_corporation: 'O', source: 's', chains: [{ chain: ' ' }] }] }),
    ).toThrow(/has no "chain"/);
  });
});
