import { describe, expect, it } from 'vitest';
import { CHAIN_CATEGORIES, DictionaryEnricher, MERCHANTS } from '../src';

const enricher = new DictionaryEnricher();
const brandOf = (description: string) => enricher.brandFor(description)?.brand ?? null;

describe('DictionaryEnricher.brandFor', () => {
  it.each([
    ['COCA-COLA 1.5L', 'Coca-Cola'],
    ['Coca Cola 330ml', 'Coca-Cola'],
    ['COCACOLA 6X330ML', 'Coca-Cola'],
    ['COCA-C0LA 1.5L', 'Coca-Cola'],
    ['C0CA C0LA', 'Coca-Cola'],
    ['COKE 2L', 'Coca-Cola'],
    ['COKE1.5L', 'Coca-Cola'],
    ['COKE ZERO 330ML', 'Coca-Cola Zero Sugar'],
    ['HEINZ KETCHUP 460G', 'Heinz'],
    ['HNZ TOM KETCHUP', 'Heinz'],
    ['HE1NZ BEANZ', 'Heinz'],
    ['HEINZ57 SAUCE', 'Heinz'],
    ['KLGS CORN FLAKES 500G', "Kellogg's"],
    ["KELLOGG'S RICE KRISPIES", "Kellogg's"],
    ['kelloggs special k', "Kellogg's"],
    ['DOVE SOAP BAR 2X90G', 'Dove'],
    ['Dove Men+Care Deo', 'Dove'],
    ['MRMUSCLEINTANKTBC', 'Mr Muscle'],
    ['MR. MUSCLE KITCHEN', 'Mr Muscle'],
    ['SWISSMISS DRKCHC03TG', 'Swiss Miss'],
    ['KNR CBS PR120G', 'Knorr'],
    ['NESCAFE GOLD 200G', 'Nescafé'],
    ['Nescafé Gold', 'Nescafé'],
    ['MÜLLER CORNER', 'Müller'],
    ['MULLER RICE', 'Müller'],
    ['M&MS PEANUT 200G', "M&M's"],
    ['M & M CHOCO', "M&M's"],
    ['ARM AND HAMMER BAKING SODA', 'Arm & Hammer'],
    ['ARM&HAMMER', 'Arm & Hammer'],
    ['KINDER BUENO 2PK', 'Kinder'],
    ['PEPSI MAX 2L', 'Pepsi Max'],
    ['PEPSI 1.5L', 'Pepsi'],
    ['MONSTER MUNCH PICKLED ONION', 'Monster Munch'],
    ['MONSTER ENERGY 500ML', 'Monster Energy'],
    ['HELLMANS MAYO', "Hellmann's"],
    ['PAMPERS PREMIUM S3', 'Pampers'],
    ['PULL-UPS TRAINING PANTS', 'Pull-Ups'],
    ['HUGGIES PULL-UPS', 'Huggies'],
    ['WHISKAS 1+ CAT', 'Whiskas'],
    ['LURPAK SLIGHTLY SALTED', 'Lurpak'],
    ['MILO 1KG', 'Milo'],
    ['100PLUS ISOTONIC', '100PLUS'],
    ['DUTCH LADY UHT', 'Dutch Lady'],
    ['TIGER BEER CAN', 'Tiger Beer'],
    ['TIGER BALM RED', 'Tiger Balm'],
    ['GALAXY SMOOTH MILK', 'Galaxy'],
    ['V8 VEG JUICE', 'V8'],
    ['JACOBS KRONUNG', 'Jacobs'],
    ['SAMSUNG GALAXY CASE', 'Samsung'],
    ['STELLA ARTOIS 4X440', 'Stella Artois'],
    ['FAIRY LIQUID ORIGINAL', 'Fairy'],
  ])('finds the brand in %j', (description, brand) => {
    expect(brandOf(description)).toBe(brand);
  });

  it.each([
    'DOVETAIL JOINT',
    'DOVE DARK CHOC',
    'KINDER SHAMPOO',
    'KINDERGARTEN SUPPLIES',
    'FAIRY CAKES 12PK',
    'MMS OYSTER SCE 156G',
    'LOOSE BANANAS',
    'BREAD WHITE 800G',
    'MEGA MARKET PLUS',
    'Loyal Treats B2+10',
    'CHICKEN BREAST FILLETS',
    'TANG YUAN SESAME',
    'NOVA SCOTIA SALMON',
    'BOUNTYFUL HARVEST',
    'COKER SPANIEL TOY',
    'SPRITES',
    'JACOBS CREAM CRACKERS',
    "JACOB'S CREEK SHIRAZ",
    '',
    '   ',
    '12345',
  ])('finds no brand in %j', (description) => {
    expect(enricher.brandFor(description)).toBeNull();
  });

  it("gives the brand's owning corporation", () => {
    expect(enricher.brandFor('COCA-COLA 1.5L')).toEqual({
      brand: 'Coca-Cola',
      owning_corporation: 'The Coca-Cola Company',
    });
    expect(enricher.brandFor('HNZ KETCHUP')?.owning_corporation).toBe('The Kraft Heinz Company');
    expect(enricher.brandFor('DOVE SOAP')?.owning_corporation).toBe('Unilever');
    expect(enricher.brandFor('TIDE PODS')?.owning_corporation).toBe('Procter & Gamble');
    expect(enricher.brandFor('MILO 1KG')?.owning_corporation).toBe('Nestlé');
  });

  it('prefers the longest name found', () => {
    expect(brandOf('COCA COLA ZERO 500ML')).toBe('Coca-Cola Zero Sugar');
    expect(brandOf('DIET COKE 2L')).toBe('Diet Coke');
    expect(brandOf('NESTLE PURE LIFE 1.5L')).toBe('Nestlé Pure Life');
  });

  it('exposes the dataset entry with its source and notes', () => {
    const entry = enricher.brandEntryFor('KITKAT 4 FINGER');
    expect(entry?.brand).toBe('KitKat');
    expect(entry?.source).toMatch(/nestle\.com/);
    expect(entry?.note).toMatch(/Hershey/);
  });

  it("gives a brand owned by others in some countries the owner of the receipt's country", () => {
    const owner = (description: string, country?: string | null) =>
      enricher.brandFor(description, { country })?.owning_corporation;
    expect(enricher.brandFor('7UP 1.5L', { country: 'MY' })).toEqual({
      brand: '7UP',
      owning_corporation: 'PepsiCo',
    });
    expect(owner('7-UP CAN 330ML', 'US')).toBe('Keurig Dr Pepper');
    expect(owner('TWISTIES CHIPSTER ORIG', 'MY')).toBe('Mondelēz International');
    expect(owner('TWISTIES CHEESE 90G', 'AU')).toBe('PepsiCo');
    expect(owner('CORONA EXTRA 355ML', 'US')).toBe('Constellation Brands');
    expect(owner('CORONA EXTRA 355ML', 'DE')).toBe('AB InBev');
    // Without the country, the brand is named and its owner is not guessed.
    expect(enricher.brandFor('7UP 1.5L')).toEqual({ brand: '7UP', owning_corporation: null });
    expect(enricher.brandFor('CORONA SCHNELLTEST')).toBeNull();
    // A brand with one owner keeps it whatever the country.
    expect(owner('MILO 1KG', 'US')).toBe('Nestlé');
  });

  it('accepts its own dataset', () => {
    const custom = new DictionaryEnricher({
      brands: [{ brand: 'Acme', owning_corporation: 'Acme Holdings', aliases: ['ACM'], source: 'test' }],
      merchants: [
        { chain: 'Corner Shop', owning_corporation: 'Corner Group', category: 'grocery', source: 'test' },
      ],
    });
    expect(custom.brandFor('ACM GLUE')).toEqual({ brand: 'Acme', owning_corporation: 'Acme Holdings' });
    expect(custom.brandFor('COKE')).toBeNull();
    expect(custom.corporationForMerchant('CORNER SHOP #2')).toBe('Corner Group');
  });

  it('names the chain in receipt text with its owner and category, for the analyzers', () => {
    expect(enricher.chainIn('Aldi GmbH & Co. KG, Schloss Holte')).toEqual({
      chain: { chain: 'Aldi Nord', owning_corporation: 'Aldi Nord', category: 'grocery' },
      phrase: 'Aldi',
    });
    expect(enricher.chainIn('ALDI SÜD')?.chain.chain).toBe('Aldi Süd');
    expect(enricher.chainIn('marktkauf lehr')?.chain).toEqual({
      chain: 'Marktkauf',
      owning_corporation: 'Edeka Zentrale',
      category: 'grocery',
    });
    expect(enricher.chainIn('SHELL STATION KEPONG')?.chain.category).toBe('fuel');
    // `real` is a common word: only its longer forms name the chain.
    expect(enricher.chainIn('REAL FRUIT JUICE')).toBeNull();
    expect(enricher.chainIn('real GmbH')?.chain.owning_corporation).toBe('SCP Group');
  });

  it('gives every chain of the dataset an owner and a receipt category', () => {
    for (const entry of MERCHANTS) {
      expect(entry.owning_corporation.trim(), entry.chain).not.toBe('');
      expect(CHAIN_CATEGORIES, entry.chain).toContain(entry.category);
    }
  });

  it('matches 10,000 descriptions consistently', () => {
    const pool = [
      'COCA-C0LA 1.5L',
      'HNZ KETCHUP',
      'LOOSE BANANAS',
      'DOVETAIL',
      'KLGS CORN FLAKES',
      'PAMPERS S3',
    ];
    const expected = pool.map((d) => enricher.brandFor(d)?.brand ?? null);
    const got = Array.from(
      { length: 10_000 },
      (_, i) => enricher.brandFor(`${pool[i % pool.length]} ${i}`)?.brand ?? null,
    );
    expect(got.filter((b, i) => b !== expected[i % pool.length])).toEqual([]);
    expect(expected).toEqual(['Coca-Cola', 'Heinz', null, null, "Kellogg's", 'Pampers']);
  });
});

describe('DictionaryEnricher.corporationForMerchant', () => {
  it.each([
    ['TESCO STORES LTD', 'Tesco PLC'],
    ['Tesco Express', 'Tesco PLC'],
    ["SAINSBURY'S LOCAL", 'J Sainsbury plc'],
    ['SAINSBURYS', 'J Sainsbury plc'],
    ['WAL-MART SUPERCENTER #1234', 'Walmart Inc.'],
    ['Walmart', 'Walmart Inc.'],
    ['costco', 'Costco Wholesale Corporation'],
    ['COSTCO WHOLESALE #123', 'Costco Wholesale Corporation'],
    ['Whole Foods Market', 'Amazon.com, Inc.'],
    ['Amazon.com', 'Amazon.com, Inc.'],
    ["TRADER JOE'S #552", 'Aldi Nord'],
    ['LIDL', 'Schwarz Gruppe'],
    ['Delhaize', 'Ahold Delhaize'],
    ['AD DELHAIZE BRUSSEL', 'Ahold Delhaize'],
    ['Carrefour Market', 'Carrefour SA'],
    ['TARGET T-1234', 'Target Corporation'],
    ['7-ELEVEN', 'Seven & i Holdings'],
    ['7 ELEVEN MALAYSIA SDN BHD', 'Seven & i Holdings'],
    ['AEON BIG (M) SDN BHD', 'AEON Co., Ltd.'],
    ["LOTUS'S STORES (MALAYSIA)", 'Charoen Pokphand Group'],
    ['99 SPEEDMART', '99 Speed Mart Retail Holdings'],
    ['MYDIN', 'Mydin Mohamed Holdings'],
    ['WATSONS PERSONAL CARE', 'A.S. Watson Group'],
  ])('knows the owner of %j', (name, owner) => {
    expect(enricher.corporationForMerchant(name)).toBe(owner);
  });

  it.each([
    'MEGA MARKET PLUS',
    'Demo Clinic',
    'Amazonas Cafe',
    'TARGETED ADS LTD',
    'KEDAI RUNCIT AH SENG',
    '',
  ])('leaves %j unknown', (name) => {
    expect(enricher.corporationForMerchant(name)).toBeNull();
  });

  it('exposes the chain entry with its note', () => {
    expect(enricher.chainFor('TESCO STORES (MALAYSIA) SDN BHD')?.note).toMatch(/Lotus's/);
  });
});
