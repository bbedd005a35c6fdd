import { describe, expect, it } from 'vitest';
import { buildBrands, checkDataset, ownerKey, type SourceFile } from '../src/build-data';
import { readSources, runCli } from '../src/cli';

const chains: SourceFile = {
  groups: [
    {
      owning_corporation: 'Shop Group',
      source: 'shop.example',
      chains: [
        { chain: 'Shop', category: 'grocery' },
        { chain: 'Shop Mini', category: 'grocery' },
      ],
    },
  ],
};
const brands = (groups: SourceFile['groups']): SourceFile => ({ groups });

describe('building the brands file from its sources', () => {
  it('writes plain-string brands as entries and keeps every group', () => {
    const built = buildBrands([
      {
        name: 'a.json',
        data: brands([{ owning_corporation: 'A Corp', source: 'a.example', brands: ['Alpha'] }]),
      },
      {
        name: 'b.json',
        data: brands([
          {
            owning_corporation: 'B Corp',
            source: 'b.example',
            brands: [{ brand: 'Beta', aliases: ['BTA'] }],
          },
        ]),
      },
    ]);
    expect(built.groups.map((g) => g.brands)).toEqual([
      [{ brand: 'Alpha' }],
      [{ brand: 'Beta', aliases: ['BTA'] }],
    ]);
  });
});

describe('checking the dataset', () => {
  const ok = brands([{ owning_corporation: 'A Corp', source: 'a.example', brands: [{ brand: 'Alpha' }] }]);

  it('accepts a clean dataset', () => {
    expect(checkDataset(ok, chains)).toEqual([]);
  });

  it('refuses a chain without a receipt category, or with one the app does not have', () => {
    const uncategorised: SourceFile = {
      groups: [
        {
          owning_corporation: 'Shop Group',
          source: 'shop.example',
          chains: [{ chain: 'Shop' }, { chain: 'Shop Mini', category: 'snacks' }],
        },
      ],
    };
    expect(checkDataset(ok, uncategorised)).toEqual([
      'merchants: Shop needs a category, one of grocery, restaurant, retail, fuel, pharmacy',
      'merchants: Shop Mini needs a category, one of grocery, restaurant, retail, fuel, pharmacy',
    ]);
  });

  it("refuses a chain's own brand that the brands do not list", () => {
    const ownBrand = (brand: string): SourceFile => ({
      groups: [
        {
          owning_corporation: 'Shop Group',
          source: 'shop.example',
          chains: [{ chain: 'Shop', category: 'retail', own_brand: brand }],
        },
      ],
    });
    const known = ok.groups[0]!.brands![0]!;
    expect(checkDataset(ok, ownBrand(typeof known === 'string' ? known : (known.brand ?? '')))).toEqual([]);
    expect(checkDataset(ok, ownBrand('Nowhere'))).toEqual([
      'merchants: Shop sells its own brand Nowhere, which brands.json does not list',
    ]);
  });

  it('refuses a brand listed twice and a name or alias standing for two owners', () => {
    const problems = checkDataset(
      brands([
        {
          owning_corporation: 'A Corp',
          source: 'a.example',
          brands: [{ brand: 'Alpha' }, { brand: 'Gamma' }],
        },
        {
          owning_corporation: 'B Corp',
          source: 'b.example',
          brands: [{ brand: 'ALPHA' }, { brand: 'Delta', aliases: ['GAMMA'] }],
        },
      ]),
      chains,
    );
    expect(problems).toContain('brands: ALPHA is listed twice (A Corp and B Corp)');
    expect(problems).toContain('"GAMMA" is both brand Gamma (A Corp) and brand Delta (B Corp)');
  });

  it('refuses a key that only OCR folding makes equal to another owner’s', () => {
    const problems = checkDataset(
      brands([
        { owning_corporation: 'A Corp', source: 'a.example', brands: [{ brand: 'Kolo' }] },
        { owning_corporation: 'B Corp', source: 'b.example', brands: [{ brand: 'K0L0' }] },
      ]),
      chains,
    );
    expect(problems.join('\n')).toMatch(/~KOIO/);
  });

  it('refuses an owner spelled two ways', () => {
    const problems = checkDataset(
      brands([
        { owning_corporation: 'Acme Foods plc', source: 'a.example', brands: [{ brand: 'Alpha' }] },
        { owning_corporation: 'Acme Foods PLC', source: 'a.example', brands: [{ brand: 'Beta' }] },
      ]),
      chains,
    );
    expect(problems).toEqual(['one owner is spelled "Acme Foods plc" and "Acme Foods PLC"']);
    expect(ownerKey('Nestlé S.A.')).toBe(ownerKey('Nestle'));
  });

  it('refuses an entry without a source, an empty group and a key too short to be safe', () => {
    const problems = checkDataset(
      brands([
        { owning_corporation: 'A Corp', source: 'our notes', brands: [{ brand: 'Alpha' }, { brand: 'Xy' }] },
        { owning_corporation: 'B Corp', source: 'b.example', brands: [] },
      ]),
      chains,
    );
    expect(problems).toEqual([
      'brands: the group of B Corp lists nothing',
      'brands: Alpha (A Corp) names no source (a site or a publication)',
      'brands: Xy (A Corp) names no source (a site or a publication)',
      'brands: Xy has a key too short to be safe: XY',
    ]);
  });

  it('checks a brand owned by others in some countries', () => {
    const split = (entry: Record<string, unknown>) =>
      checkDataset(
        brands([
          { owning_corporation: 'Fizz Corp', source: 'fizz.example', brands: [{ brand: 'Fizzo', ...entry }] },
          { owning_corporation: 'Pop Inc.', source: 'pop.example', brands: ['Poppo'] },
        ]),
        chains,
      );
    expect(split({ owners_by_country: { US: 'Pop Inc.' }, source: 'fizz.example/fizzo' })).toEqual([]);
    expect(split({ owners_by_country: { US: 'Pop Inc.' } })).toEqual([
      'brands: Fizzo is owned by others in some countries but names no source of its own',
    ]);
    expect(split({ owners_by_country: { USA: 'Pop Inc.' }, source: 'fizz.example/fizzo' })).toEqual([
      'brands: Fizzo names a country that is no ISO code: USA',
    ]);
    expect(split({ owners_by_country: { US: 'Fizz Corporation' }, source: 'fizz.example/fizzo' })).toEqual([
      'brands: Fizzo is owned by Fizz Corporation in US, the owner it has anyway',
      'one owner is spelled "Fizz Corp" and "Fizz Corporation"',
    ]);
    expect(split({ owners_by_country: { US: 'Pop Incorporated' }, source: 'fizz.example/fizzo' })).toEqual([
      'one owner is spelled "Pop Incorporated" and "Pop Inc."',
    ]);
    expect(split({ owners_by_country: {}, source: 'fizz.example/fizzo' })).toEqual([
      'brands: Fizzo lists no country in owners_by_country',
    ]);
  });

  it("checks a retailer's own labels against the chains that sell them", () => {
    const problems = checkDataset(
      brands([
        {
          owning_corporation: 'Shop Group',
          source: 'shop.example',
          brands: [
            { brand: 'Shopsy', only_at: ['Shop'] },
            { brand: 'Ok', only_at: ['Shop'], needs_shop: true },
            { brand: 'Nowhere', only_at: ['Corner Store'] },
            { brand: 'Common', needs_shop: true },
          ],
        },
        {
          owning_corporation: 'Other Group',
          source: 'other.example',
          brands: [{ brand: 'Stolen', only_at: ['Shop'] }],
        },
      ]),
      chains,
    );
    expect(problems).toEqual([
      'brands: Nowhere is sold only at Corner Store, a chain merchants.json does not list',
      'brands: Common needs a shop but names none (only_at)',
      'brands: Stolen belongs to Other Group, who owns none of the chains it is sold at (Shop)',
    ]);
  });
});

describe('the shipped dataset', () => {
  it('passes the check, and data/brands.json holds what the sources build', async () => {
    const lines: string[] = [];
    expect(
      await runCli(
        ['check'],
        (l) => lines.push(l),
        (l) => lines.push(l),
      ),
    ).toBe(0);
    expect(lines.join('\n')).toMatch(/^\d+ brands of \d+ owners: OK$/);
  });

  it('is written in several source files, one per market or kind of product', () => {
    expect(readSources().map((s) => s.name)).toEqual(
      expect.arrayContaining(['global.json', 'retailer-labels.json', 'asia.json', 'europe.json']),
    );
  });
});
