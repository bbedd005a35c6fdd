import { describe, expect, it } from 'vitest';
import { parseReceiptText, type LineWord } from '../src';

/** A shop's heading and address, above the lines of each test. */
const HEADING = ['KEDAI SERBA NEKA SDN BHD', 'NO 12, JALAN SS 2/24,', '47300 PETALING JAYA, SELANGOR'];

const names = (text: string, opts = {}) =>
  parseReceiptText(text, opts).items.map((i) => [i.description, i.quantity, i.total_price]);
/** Each item as description, quantity, unit price and amount. */
const rows = (text: string) =>
  parseReceiptText(text).items.map((i) => [i.description, i.quantity, i.unit_price, i.total_price]);

describe('items in groups, each with its subtotal', () => {
  // A bakery's delivery note: goods without tax, their subtotal, then goods with tax.
  const note = [
    'MAKASSAR FRESH MARKET SDN BHD',
    'DD:28/08/2017 12:26',
    'Description U.P Iss D Sale Amt(RM)',
    'O.C.WHITE 2.13 5 0 6.39',
    'WHOLEMEAL 2.78 5 13.90',
    'Total 0% supplies: 20.29',
    'CR-CORN 0.72 20 0 20 14.40',
    'CR-CHOCLT 0 20 20 14.40',
    'Total 6% supplies (excl. GST): 28.80',
    'GST: 1.73',
    'Total Payable: 50.82',
  ].join('\n');

  it('reads the items under a subtotal that adds up the items above it', () => {
    expect(names(note).map(([d]) => d)).toEqual(['O.C.WHITE', 'WHOLEMEAL', 'CR-CORN', 'CR-CHOCLT']);
    expect(parseReceiptText(note).receipt.total_checks_out).toBe(true);
  });

  it('takes the quantity from amount over unit price where the counts do not give it', () => {
    expect(names(note)[0]).toEqual(['O.C.WHITE', 3, 6.39]);
  });

  it('leaves count columns out of the name, the last count the quantity', () => {
    expect(names(note)[3]).toEqual(['CR-CHOCLT', 20, 14.4]);
  });

  it('ends the items at a service charge under the subtotal', () => {
    const bill = [
      'QTY ITEM AMOUNT',
      '1 TIGER 12 GLASSES 145.00',
      'SUB TOTAL 145.00',
      'SERVICE CHARGE 10% 14.50',
      'NET TOTAL 159.50',
    ];
    expect(names(bill.join('\n'))).toEqual([['TIGER 12 GLASSES', 1, 145]]);
  });
});

describe('a delivery note with goods taken back', () => {
  // Goods delivered, returned and sold per row, their subtotal, then a section of returns.
  const note = (lines: string[]) =>
    [
      'KEDAI RUNCIT MAJU SDN BHD',
      'DD:14/03/2017 09:10',
      'Description U.P Iss Rtn Sale Amt(RM)',
      ...lines,
      'Total Payable: 9.99',
    ].join('\n');

  it('reads the returns under the subtotal of the goods sold, with their negative amounts', () => {
    const text = note([
      'RAISIN LOAF 3.10 4 1 3 9.30',
      'Total 0% supplies: 9.30',
      'BUN-KAYA 0.65 0 6 -6 -3.90',
    ]);
    expect(rows(text)).toEqual([
      ['RAISIN LOAF', 3, 3.1, 9.3],
      ['BUN-KAYA', -6, 0.65, -3.9],
    ]);
  });

  it('reads a row whose goods all came back, at 0.00, as an item sold none of', () => {
    const text = note(['RAISIN LOAF 3.10 4 1 3 9.30', 'SANDWICH 2.40 3 3 0 0.00', 'Total 0% supplies: 9.30']);
    expect(rows(text)[1]).toEqual(['SANDWICH', 0, 2.4, 0]);
    // A gift priced at 0.00 with its count.
    const gift = note([
      'RAISIN LOAF 3.10 4 1 3 9.30',
      'FREE TOTE BAG 1 x 0.00 0.00',
      'Total 0% supplies: 9.30',
    ]);
    expect(rows(gift)[1]).toEqual(['FREE TOTE BAG', 1, 0, 0]);
  });

  it('gives a returned row the minus its amount was read without', () => {
    const text = note([
      'RAISIN LOAF 3.10 4 1 3 9.30',
      'Total 0% supplies: 9.30',
      'BUN-KAYA 0.65 0 6 -6 3.90',
    ]);
    expect(rows(text)[1]).toEqual(['BUN-KAYA', -6, 0.65, -3.9]);
  });

  it('reads a unit price printed without its whole part from the amount and the sale count', () => {
    const text = note([
      'RAISIN LOAF .10 4 1 3. 9.30',
      'BUN-KAYA@.65 0 1 -1 -0.65',
      'Total 0% supplies: 8.65',
    ]);
    expect(rows(text)).toEqual([
      ['RAISIN LOAF', 3, 3.1, 9.3],
      ['BUN-KAYA', -1, 0.65, -0.65],
    ]);
  });

  it('gives the one row of a group whose amount was not read what its subtotal leaves', () => {
    const text = note([
      'RAISIN LOAF 3.10 4 1 3 9.30',
      'Total 0% supplies: 9.30',
      'BUN-KAYA 0.65 0 6 -6 -3.90',
      'SWISS ROLL 4.15 0 2 2',
      'Total 6% supplies (excl. GST): -12.20',
    ]);
    expect(rows(text)).toEqual([
      ['RAISIN LOAF', 3, 3.1, 9.3],
      ['BUN-KAYA', -6, 0.65, -3.9],
      ['SWISS ROLL', -2, 4.15, -8.3],
    ]);
    // Where the difference is no count the row prints, the row stays unread.
    const off = text.replace('-12.20', '-11.20');
    expect(rows(off).map((r) => r[0])).toEqual(['RAISIN LOAF', 'BUN-KAYA']);
  });

  it('reads a leading O read as a zero before the point of an abbreviation as the letter', () => {
    expect(rows(note(['0.K LOAF 3.10 4 1 3 9.30', 'Total 0% supplies: 9.30']))[0]![0]).toBe('O.K LOAF');
  });

  it('takes no bare 0.00 line for an item, nor a date for a count and an amount', () => {
    const text = note(['RAISIN LOAF 3.10 4 1 3 9.30', 'Deposit 0.00', 'Total 0% supplies: 9.30']);
    expect(rows(text)).toEqual([['RAISIN LOAF', 3, 3.1, 9.3]]);
    expect(rows(note(['1 SUB T01. 9.30', 'RAISIN LOAF 3.10 4 1 3 9.30', 'Total: 9.30']))).toEqual([
      ['RAISIN LOAF', 3, 3.1, 9.3],
    ]);
  });
});

describe('rows after an article code, priced in ringgit', () => {
  const till = (lines: string[]) =>
    [
      ...HEADING,
      '09:12AM 123456 03-04-17',
      ...lines,
      'Total Sales (Inclusive GST) RM 21.93',
      'CASH RM 50.00',
    ].join('\n');

  it('reads the codes before the names as codes, not as quantities, and the count under a row', () => {
    const text = till([
      '0412 SARDIN TIN 155G RM4.40 S',
      '2XRM2.20',
      '318 KICAP MANIS 340ML RM3.65 S',
      '7731 TEH BUNGA 20S RM13.88 Z',
      '@2XR6.94',
    ]);
    expect(rows(text)).toEqual([
      ['SARDIN TIN 155G', 2, 2.2, 4.4],
      ['KICAP MANIS 340ML', null, null, 3.65],
      ['TEH BUNGA 20S', 2, 6.94, 13.88],
    ]);
  });

  it('reads an amount whose ringgit mark or digits were read as letters', () => {
    const text = till([
      '0412 SARDIN TIN 155G RN4.40s',
      '318 KICAP MANIS 340ML RM3.6Ss',
      '7731 TEH BUNGA 20S RNl3.885',
    ]);
    expect(rows(text).map((r) => r[3])).toEqual([4.4, 3.65, 13.88]);
  });

  it('reads a unit price run into its amount, under a tax code set off by a colon', () => {
    const text = [
      ...HEADING,
      'ITEM QTY U/P AMOUNT',
      '2411880001 40 0.2510.00',
      'ZRL:KACANG TANAH 100G',
      '2411880002 2 5.9011.80',
      'SR:SOS CILI 500ML',
      'SUB-TOTAL 21.80',
    ].join('\n');
    expect(rows(text)).toEqual([
      ['KACANG TANAH 100G', 40, 0.25, 10],
      ['SOS CILI 500ML', 2, 5.9, 11.8],
    ]);
  });

  it('keeps a leading quantity where rows carry no article codes', () => {
    const text = till(['2 SARDIN TIN 155G RM4.40 S', '100 CABAI KERING RM3.65 S']);
    expect(rows(text).map((r) => r[1])).toEqual([2, 100]);
  });
});

describe('amounts whose decimal point was lost', () => {
  it('reads an amount whose decimal point was lost from the subtotal, or from the row itself', () => {
    const bill = (lines: string[], sub: string) =>
      [...HEADING, 'Date 21/01/2018 15:46', 'Item Name Qty Price(RM)', ...lines, sub, 'Cash 20.00'].join(
        '\n',
      );
    expect(rows(bill(['Mango Smoothie-L 1 850 SR', 'Grass Jelly 1.20'], 'Sub Total RM9.70'))).toEqual([
      ['Mango Smoothie-L', 1, 8.5, 8.5],
      ['Grass Jelly', null, null, 1.2],
    ]);
    // A number on a line that is no item row (no count, no tax code) is not taken for the amount.
    expect(rows(bill(['Grass Jelly 1.20', 'Queue 060'], 'Sub Total RM1.80'))).toEqual([
      ['Grass Jelly', null, null, 1.2],
    ]);
    // Where the subtotal leaves another amount, the figure is no amount.
    expect(rows(bill(['Mango Smoothie-L 1 850 SR', 'Grass Jelly 1.20'], 'Sub Total RM9.90'))).toEqual([
      ['Grass Jelly', null, null, 1.2],
    ]);
    expect(rows(bill(['B5 NOTE PAD 6 045 270 SR'], 'Sub Total 2 70')).map((r) => r.slice(1))).toEqual([
      [6, 0.45, 2.7],
    ]);
  });
});

describe('lines that are no part of a name', () => {
  it('a line of column-heading words, its spaces misread', () => {
    const text = [
      ...HEADING,
      'Date: 29-01-18 20:38',
      'Descript ion Amount(RM)',
      'FLOWER BUNCH - ROSE',
      '122 pcs @ 18.90 2,305.80 SR',
      'Total RM 2,305.80',
    ];
    expect(names(text.join('\n'))).toEqual([['FLOWER BUNCH - ROSE', 122, 2305.8]]);
  });

  it('a code line with a space read after its hyphen', () => {
    const text = [
      ...HEADING,
      '-TAX INVOICE-',
      'SPONGE KOREA-2S *S',
      'AR62- 12/312',
      '9064017 4X 3.00 12.00',
      'TOTAL INCL. GST@6 RM 12.00',
    ];
    expect(names(text.join('\n'))).toEqual([['SPONGE KOREA-2S', 4, 12]]);
  });
});

describe("a name's second line under its row", () => {
  const rows: Array<[string, number]> = [
    ...HEADING.map((line): [string, number] => [line, 100]),
    ['Description Qty Price Amount', 27],
    ['(T02) BRAISED PORK 2.0 7.00 14.00', 27],
    ['RICE WITH PEANUT', 29],
    ['(R05) ROAST PORK 1.0 11.90 11.90', 27],
    ['*Extra 1 Sauce', 60],
    ['Total Qty 3 25.90', 160],
  ];
  // Boxes: 10 px a character, a word per printed word.
  const lineWords: LineWord[][] = rows.map(([text, left]) =>
    [...text.matchAll(/\S+/g)].map((m) => ({
      text: m[0],
      box: [left + m.index * 10, 0, left + (m.index + m[0].length) * 10, 20] as const,
    })),
  );
  const text = rows.map(([t]) => t).join('\n');

  it('joins the name where it starts where the row starts; an indented extra stays out', () => {
    expect(names(text, { lineWords }).map(([d]) => d)).toEqual([
      '(T02) BRAISED PORK RICE WITH PEANUT',
      '(R05) ROAST PORK',
    ]);
  });
});

describe('a date printed with the time', () => {
  it('is read when its first separator was not', () => {
    const text = ['99 SPEED MART S/B', '01:34PM 568017 0502-18', 'BREAD RM2.50', 'Total Sales RM 2.50'];
    expect(parseReceiptText(text.join('\n')).receipt.transaction_date).toBe('2018-02-05');
  });
});

describe('rows of figures with their names under them', () => {
  it('reads a one-letter column against the amount, and two rows of one amount as two items', () => {
    const text = [
      ...HEADING,
      'Date:28-04-2018 20:10:51',
      'Qty Description Total TAX',
      '1 D20.00 SR',
      'Chicken Item',
      'D 15.00 SR',
      'Vege item',
      '1 D 15.00 SR',
      'Fried Rice',
      'TOTAL: 50.00',
    ];
    expect(names(text.join('\n')).map(([d, , t]) => [d, t])).toEqual([
      ['Chicken Item', 20],
      ['Vege item', 15],
      ['Fried Rice', 15],
    ]);
  });

  it('reads a column heading whose I was read as 1', () => {
    const text = [
      ...HEADING,
      'QTY 1TEM TOTAL.',
      '1 L McChicken 11.10',
      '1 6Nuggets 7.80',
      'Total Rounded 18.90',
    ];
    expect(names(text.join('\n')).map(([, , t]) => t)).toEqual([11.1, 7.8]);
  });
});

describe('rows an engine misread', () => {
  it('reads a name with a number run into it, and a space read into the unit price', () => {
    const text = [
      ...HEADING,
      'Qty Description Price Total(RM)',
      '0.934ALUMINIUMROD 6.00 5.40 SR',
      'Teh(B)',
      '1x 2. 20 2.20 ZRL',
      'Total 7.60',
    ];
    expect(names(text.join('\n'))).toEqual([
      ['0.934ALUMINIUMROD', null, 5.4],
      ['Teh(B)', 1, 2.2],
    ]);
  });

  it('sets a tax mark read as a digit apart where quantity × unit price bears it out', () => {
    const text = [
      ...HEADING,
      'B.CODE & DESC. QTY U/PRICE AMT',
      '27932 1 5.40 5.40s',
      "M&G GEL PEN 0.5MM 3'S",
      '9555684639363 1 3.60 3.605',
      'FABER CASTELL PENCIL',
      '9555684639364 2 3.60 7.215',
      'SUB-TOTAL 9.00',
    ];
    // The third row's digits agree with neither reading: it stays unread.
    expect(names(text.join('\n'))).toEqual([
      ["M&G GEL PEN 0.5MM 3'S", 1, 5.4],
      ['FABER CASTELL PENCIL', 1, 3.6],
    ]);
  });

  it('reads COPY, ORIGINAL and ORDER in a name as goods, and a copy title as none', () => {
    const text = [
      ...HEADING,
      'Item Code Qty U/Price Amt',
      '350ML CALPIS ORIGINAL',
      'SR-9556404118038 1 2.49 2.49',
      'CUSTOMER COPY',
      "70g P.Copy 450'S",
      '3pc 13.69 41.07 T',
      '1.2012-0029 RESTAURANT ORDER CHIT NCR',
      '3 X2.9000 8.70SR',
      'Sub Total 52.26',
    ];
    expect(names(text.join('\n'))).toEqual([
      ['350ML CALPIS ORIGINAL', 1, 2.49],
      ["70g P.Copy 450'S", 3, 41.07],
      ['1.2012-0029 RESTAURANT ORDER CHIT NCR', 3, 8.7],
    ]);
  });
});

describe('the measure of a counted or weighed item on a row of its own', () => {
  const measures = (lines: string[]) =>
    parseReceiptText(
      ['MARKT GMBH', 'Hauptstr. 1', '12345 Musterstadt', 'EUR', ...lines].join('\n'),
    ).items.map((i) => [i.description, i.quantity, i.unit_price, i.total_price]);

  it('reads a count above its item and a weight or count under it, where the product is the amount', () => {
    const items = measures([
      'TONIC WATER 1,59 C',
      '2x 0,75',
      'FRUEHL-QUARK 1,50 B',
      '3×1,99',
      'MOCCA TAFEL 5,97 E',
      'BANANEN 0,29 B',
      '0,144kg 1,99 EUR/kg',
      'TOMATEN 2,17 B',
      '1,286 kg x 1,69 EUR/kg',
      'MILCH 2,38 B',
      '2 Stk x 1,19',
      'SUMME EUR 13,90',
    ]);
    expect(items).toEqual([
      ['TONIC WATER', null, null, 1.59],
      ['FRUEHL-QUARK', 2, 0.75, 1.5],
      ['MOCCA TAFEL', 3, 1.99, 5.97],
      ['BANANEN', 0.144, 1.99, 0.29],
      ['TOMATEN', 1.286, 1.69, 2.17],
      ['MILCH', 2, 1.19, 2.38],
    ]);
  });

  it('reads a weight with its price per kilogram under a heading of units, not the heading as a name', () => {
    const items = measures(['BANANEN LOSE C', 'kg EURO/kg EURO', '0,158 1,19 0,19', 'SUMME EUR 0,19']);
    expect(items).toEqual([['BANANEN LOSE C', 0.158, 1.19, 0.19]]);
  });

  it('reads litres of fuel with a price per litre to three decimals', () => {
    const items = measures(['Zapfs. 3 Super E10', '42,18 l x 1,799 EUR/l 75,88 A', 'SUMME EUR 75,88']);
    expect(items).toEqual([['Zapfs. 3 Super E10', 42.18, 1.799, 75.88]]);
  });
});

describe('German card payments', () => {
  it('are no items', () => {
    const parsed = parseReceiptText(
      ['MARKT GMBH', 'Hauptstr. 1', 'Brezel 1,78 B', 'Summe 1,78', 'Girocard 1,78', 'EC-Cash 1,78'].join(
        '\n',
      ),
    );
    expect(parsed.items.map((i) => i.description)).toEqual(['Brezel']);
  });
});

describe('amounts and tax codes an engine damaged', () => {
  const SHOP = ['MARKT GMBH', 'Hauptstr. 1', 'EUR'];
  const read = (lines: string[], opts = {}) =>
    names([...SHOP, ...lines].join('\n'), opts).map(([d, , t]) => [d, t]);

  /** Boxes for rows given as words and their left edges, 10 px a character. */
  const boxed = (rows: Array<Array<[string, number]>>) => ({
    text: rows.map((words) => words.map(([t]) => t).join(' ')).join('\n'),
    lineWords: rows.map((words) =>
      words.map(([t, left]): LineWord => ({ text: t, box: [left, 0, left + t.length * 10, 20] })),
    ),
  });

  it('reads a full-width decimal comma boxed apart from the digits before it', () => {
    expect(read(['APFELSAFT 1,29 B', 'ZAHNPASTA 2 ，45C', 'SUMME EUR 3,74'])).toEqual([
      ['APFELSAFT', 1.29],
      ['ZAHNPASTA', 2.45],
    ]);
  });

  it('reads a tax class glued to a second mark after the amount', () => {
    expect(read(['MILCH 0,99 B', 'KAFFEE BOHNEN 3,49BW', 'SUMME EUR 4,48'])).toEqual([
      ['MILCH', 0.99],
      ['KAFFEE BOHNEN', 3.49],
    ]);
  });

  it('reads a tax-code digit as the letter the column prints on other rows, and no other digit', () => {
    const rows = ['BROT 1,29 B', 'KAESE 2,49 B', 'SANDWICH 1,79 8', 'SUMME EUR 5,57'];
    expect(read(rows).map(([d]) => d)).toEqual(['BROT', 'KAESE', 'SANDWICH']);
    // No row prints a B: the 8 after the amount is not read as one.
    expect(
      read(['BROT 1,29 A', 'KAESE 2,49 A', 'SANDWICH 1,79 8', 'SUMME EUR 5,57']).map(([d]) => d),
    ).toEqual(['BROT', 'KAESE']);
  });

  it('reads one letter read for a digit in the amount, and not two', () => {
    expect(read(['APFELSAFT 1,69 C', 'ORANGENSAFT 1,4D CW', 'SUMME EUR 3,09'])).toEqual([
      ['APFELSAFT', 1.69],
      ['ORANGENSAFT', 1.4],
    ]);
    expect(read(['APFELSAFT 1,69 C', 'KAFFEE 3,DB C', 'SUMME EUR 5,49'])).toEqual([['APFELSAFT', 1.69]]);
    const text = [
      ...HEADING,
      '07:49PM 563094 14-12-16',
      'MI GORENG AS RN3.79s',
      'CHIPSTER ORIG RM2.B5s',
      'COKE 1.5L RNS.98 s',
      'BERAS SUPER RM24.95Z',
      'Total Sales (Inclusive GST) RM 37.57',
    ];
    // After a ringgit mark the mark's M read as N counts apart (`RNS.98`: the currency rule).
    expect(names(text.join('\n')).map(([d, , t]) => [d, t])).toEqual([
      ['MI GORENG AS', 3.79],
      ['CHIPSTER ORIG', 2.85],
      ['COKE 1.5L', 5.98],
      ['BERAS SUPER', 24.95],
    ]);
  });

  it('drops a character read twice where the amount and the tax code meet', () => {
    const { text, lineWords } = boxed([
      ...SHOP.map((t): Array<[string, number]> => [[t, 0]]),
      [
        ['BROT', 0],
        ['1,29', 400],
        ['C', 455],
      ],
      // The 9 overlaps the amount's box and the code's: the same print read twice.
      [
        ['JOGHURT', 0],
        ['0,35', 400],
        ['9', 436],
        ['C', 442],
      ],
      [
        ['SUMME EUR', 0],
        ['1,64', 400],
      ],
    ]);
    expect(names(text, { lineWords }).map(([d, , t]) => [d, t])).toEqual([
      ['BROT', 1.29],
      ['JOGHURT', 0.35],
    ]);
  });

  it('sets apart a code digit printed after the amount where quantity × unit price bears it out', () => {
    const rows = [
      '1 2353002803 2,00 14,99 29,98 1',
      'Duschvorhang',
      '2 202770034 1,00 9,99 9,991',
      'Handtuch',
      'Summe 39,97',
    ];
    expect(read(rows)).toEqual([
      ['Duschvorhang', 29.98],
      ['Handtuch', 9.99],
    ]);
  });

  it('takes a row whose amount stays unreadable for no part of a name', () => {
    const { text, lineWords } = boxed([
      ...HEADING.map((t): Array<[string, number]> => [[t, 0]]),
      [
        ['MI GORENG AS', 0],
        ['3.79 S', 460],
      ],
      [
        ['PLANTA 240G', 0],
        ['5.20 S', 460],
      ],
      [
        ['COKE 1.5L', 0],
        ['5.%8 s', 440],
      ],
      [
        ['BERAS SUPER', 0],
        ['24.95 Z', 450],
      ],
      [
        ['Total Sales RM', 0],
        ['33.94', 450],
      ],
    ]);
    expect(names(text, { lineWords }).map(([d]) => d)).toEqual([
      'MI GORENG AS',
      'PLANTA 240G',
      'BERAS SUPER',
    ]);
  });
});

describe("an amount read back from its row's arithmetic", () => {
  const receipt = (amount: string, total: string) =>
    [
      ...HEADING,
      'ALKALINE BATTERY AA 2PK',
      `9556001234567 2 * 2.50 ${amount}`,
      'TEA BAGS 25S',
      '9556007654321 1 * 3.20 3.20',
      `TOTAL ${total}`,
      'CASH 10.00',
    ].join('\n');

  it("takes quantity × unit price for an amount a digit of which was misread, when the receipt's total agrees", () => {
    const read = parseReceiptText(receipt('5.03', '8.20'));
    expect(read.items.map((i) => i.total_price)).toEqual([5, 3.2]);
    expect(read.receipt.total_checks_out).toBe(true);
  });

  it('keeps the amount as read when the total agrees with it, or with neither figure', () => {
    // A row discount printed into the amount: the total is the sum as read.
    expect(parseReceiptText(receipt('4.50', '7.70')).items[0]!.total_price).toBe(4.5);
    const neither = parseReceiptText(receipt('5.03', '9.99'));
    expect(neither.items[0]!.total_price).toBe(5.03);
    expect(neither.receipt.total_checks_out).toBe(false);
  });
});
