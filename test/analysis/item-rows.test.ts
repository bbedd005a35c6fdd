import { describe, expect, it } from 'vitest';
import { parseReceiptText, type LineWord } from '@receipts/analyzer-ocr';

/**
 * Receipts as an engine that gives word boxes reads them: each line a list of words at a column
 * (in characters; 10 px a character, 30 px a line), so that the item rows' columns are found from
 * the boxes alone.
 */
type Row = Array<[column: number, text: string]>;

function page(rows: Row[]): { text: string; lineWords: LineWord[][] } {
  const lineWords = rows.map((row, y) =>
    row.map(([column, text]): LineWord => ({
      text,
      box: [column * 10, y * 30, (column + text.length) * 10, y * 30 + 20],
    })),
  );
  return { text: lineWords.map((words) => words.map((w) => w.text).join(' ')).join('\n'), lineWords };
}

function itemsOf(rows: Row[]) {
  const { text, lineWords } = page(rows);
  return parseReceiptText(text, { lineWords });
}

const items = (rows: Row[]) =>
  itemsOf(rows).items.map((i) => [i.description, i.quantity, i.unit_price, i.total_price]);

describe('items from the rows and columns of the page', () => {
  it('joins a name with the row of figures under it, past a stock-code line', () => {
    expect(
      items([
        [[0, 'HARDWARE TRADING SDN BHD']],
        [
          [0, 'PILLAR SINK TAP'],
          [38, '*S'],
        ],
        [[0, 'FZ02-6/54']],
        [
          [0, '9072351'],
          [22, '2X23.9047.80'],
        ],
        [
          [0, 'PLASTIC BAGS'],
          [38, '*S'],
        ],
        [
          [0, '99999'],
          [22, '1X'],
          [26, '0.20'],
          [32, '0.20'],
        ],
        [
          [0, 'TOTAL'],
          [31, '48.00'],
        ],
        [
          [0, 'CASH'],
          [31, '50.00'],
        ],
      ]),
    ).toEqual([
      ['PILLAR SINK TAP', 2, 23.9, 47.8],
      ['PLASTIC BAGS', 1, 0.2, 0.2],
    ]);
  });

  it('takes a name printed under its code-and-figures row (FG-A00019  2  1.50  3.00 / Green Tea)', () => {
    expect(
      items([
        [[0, 'KEDAI RUNCIT MAJU']],
        [
          [0, 'FG-A00019'],
          [14, '2'],
          [20, '1.50'],
          [30, '3.00'],
        ],
        [[0, 'Green Tea']],
        [
          [0, 'FG-B00107'],
          [14, '1'],
          [20, '4.20'],
          [30, '4.20'],
        ],
        [[0, 'Kaya Toast']],
        [
          [0, 'TOTAL'],
          [30, '7.20'],
        ],
      ]),
    ).toEqual([
      ['Green Tea', 2, 1.5, 3],
      ['Kaya Toast', 1, 4.2, 4.2],
    ]);
  });

  it('reads a quantity-and-unit row as the figures of the name above it', () => {
    expect(
      items([
        [[0, 'STATIONERY SHOP']],
        [[0, 'POLY CHOPPING BOARD']],
        [
          [4, '3UNIT*'],
          [18, '4.80'],
          [24, '0.00'],
          [31, '14.40'],
          [38, 'SR'],
        ],
        [[0, 'FLOWER BUNCH - ROSE']],
        [
          [4, '2 pcs @ 18.90'],
          [30, '37.80'],
          [38, 'SR'],
        ],
        [
          [0, 'Total'],
          [31, '52.20'],
        ],
      ]),
    ).toEqual([
      ['POLY CHOPPING BOARD', 3, 4.8, 14.4],
      ['FLOWER BUNCH - ROSE', 2, 18.9, 37.8],
    ]);
  });

  it('leaves out a tax-code column right of the amounts, also where the code runs on to the amount', () => {
    expect(
      items([
        [[0, 'Baumarkt GmbH']],
        [[0, '4078500017343 Blumenrechen']],
        [
          [4, '1.000 STK'],
          [30, '11.99 19'],
        ],
        [[0, '4078500372503 Holzstiel']],
        [
          [4, '1.000 STK'],
          [30, '15. 7919'],
        ],
        [
          [0, 'SUMME'],
          [10, 'EUR'],
          [30, '27.78'],
        ],
        [
          [0, 'GEGEBEN'],
          [10, 'BAR'],
          [30, '30.00'],
        ],
      ]),
    ).toEqual([
      ['Blumenrechen', 1, 11.99, 11.99],
      ['Holzstiel', 1, 15.79, 15.79],
    ]);
  });

  it('gives a quantity line above a name the item whose amount is their product', () => {
    expect(
      items([
        [[0, 'Baumarkt AG']],
        [[0, 'ART/EAN 4002245701618']],
        [
          [4, '2Rollex'],
          [22, '4,85'],
        ],
        [
          [0, 'PARKETTZUBEHOR'],
          [30, '9,70'],
        ],
        [
          [0, 'SUMME [1]'],
          [20, 'EUR'],
          [29, '9,70'],
        ],
      ]),
    ).toEqual([['PARKETTZUBEHOR', 2, 4.85, 9.7]]);
  });

  it('takes the count that quantity × unit price bears out among delivered and returned counts', () => {
    expect(
      items([
        [[0, 'BAKERY SDN BHD']],
        [[0, 'Description  U.Price  Exc  D  Sale  Amt']],
        [
          [0, 'O.C. WHITE'],
          [14, '2.13'],
          [20, '10'],
          [24, '1'],
          [27, '0'],
          [30, '9'],
          [34, '19.17'],
        ],
        [
          [0, 'WHOLEMEAL'],
          [14, '2.78'],
          [20, '5'],
          [24, '0'],
          [30, '5'],
          [34, '13.90'],
        ],
        [
          [0, 'Total Payable:'],
          [34, '33.07'],
        ],
      ]),
    ).toEqual([
      ['O.C. WHITE', 9, 2.13, 19.17],
      ['WHOLEMEAL', 5, 2.78, 13.9],
    ]);
  });

  it('never takes a count, total, payment, discount or heading line for an item', () => {
    expect(
      items([
        [[0, 'RESTORAN MAJU']],
        [
          [0, 'Item'],
          [30, 'Total'],
        ],
        [[0, 'SR I00000015-Vegetable']],
        [
          [0, '$1.10'],
          [30, '$1.10'],
        ],
        [
          [0, 'Chicken Rice'],
          [30, '$7.10'],
        ],
        [
          [0, 'Member Disc'],
          [30, '-0.50'],
        ],
        [
          [0, 'Item(s) : 2'],
          [20, 'Qty(s) : 2'],
        ],
        [[20, 'Total Amount: $7.70']],
        [
          [0, 'CASH'],
          [30, '$10.00'],
        ],
      ]),
    ).toEqual([
      ['Vegetable', null, 1.1, 1.1],
      ['Chicken Rice', null, null, 7.1],
    ]);
  });
});

describe("an item's confidence", () => {
  it('is low where the row does not add up, and confirmed where the items add up to the total', () => {
    const wrongRow = itemsOf([
      [[0, 'KEDAI MAJU']],
      [
        [0, 'TEH TARIK'],
        [14, '2'],
        [20, '1.50'],
        [30, '3.50'],
      ],
      [
        [0, 'ROTI CANAI'],
        [14, '1'],
        [20, '1.20'],
        [30, '1.20'],
      ],
      [
        [0, 'TOTAL'],
        [30, '4.70'],
      ],
    ]);
    expect(wrongRow.items.map((i) => i.total_price)).toEqual([3.5, 1.2]);
    expect(wrongRow.confidence['items.0.total_price']).toBeLessThanOrEqual(0.5);
    expect(wrongRow.confidence['items.1.total_price']).toBeGreaterThanOrEqual(0.95);

    const short = itemsOf([
      [[0, 'KEDAI MAJU']],
      [
        [0, 'ROTI CANAI'],
        [14, '1'],
        [20, '1.20'],
        [30, '1.20'],
      ],
      [
        [0, 'TOTAL'],
        [30, '9.70'],
      ],
    ]);
    expect(short.confidence['items.0.total_price']).toBeUndefined();
  });
});
