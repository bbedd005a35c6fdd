import { describe, expect, it } from 'vitest';
import {
  assertValidKey,
  dictionaryKey,
  itemIdFor,
  merchantIdFor,
  normaliseName,
  parseReceiptId,
  receiptIdFor,
  receiptIdOfItem,
} from '../src';
import { receiptIdSchema } from '../src/contract/ids';

describe('ids and keys', () => {
  it('derives the receipt id from user and file name, and back', () => {
    const id = receiptIdFor('user_1', '1700000000000-receipt.jpg');
    expect(id).toBe('user_1~1700000000000-receipt.jpg');
    expect(parseReceiptId(id)).toEqual({ userId: 'user_1', fileName: '1700000000000-receipt.jpg' });
    expect(receiptIdSchema().safeParse(id).success).toBe(true);
    expect(parseReceiptId('no-separator')).toBeNull();
    expect(parseReceiptId('~x.jpg')).toBeNull();
  });

  it('refuses receipt ids that could reach outside a user (traversal, quotes, separators)', () => {
    for (const bad of ["u~a'b.jpg", 'u~../x.jpg', 'u~a/b.jpg', 'u~~x.jpg', "u'1~x.jpg"]) {
      expect(receiptIdSchema().safeParse(bad).success).toBe(false);
    }
  });

  it('gives item ids that sort in receipt order and lead back to the receipt', () => {
    const receiptId = receiptIdFor('u', 'r.jpg');
    const ids = [0, 1, 9, 10].map((i) => itemIdFor(receiptId, i));
    expect([...ids].sort()).toEqual(ids);
    expect(receiptIdOfItem(ids[2]!)).toBe(receiptId);
  });

  it('identifies a merchant by its normalised name and postal code', () => {
    expect(normaliseName('Café  Nero, Ltd.')).toBe(normaliseName('CAFE NERO LTD'));
    expect(merchantIdFor('FreshMart Grocers', '62704')).toBe(merchantIdFor('FRESHMART GROCERS', '62704'));
    expect(merchantIdFor('FreshMart Grocers', '62704')).not.toBe(merchantIdFor('FreshMart Grocers', '10001'));
    expect(merchantIdFor('FreshMart Grocers', null)).toMatch(/^freshmart-grocers-[0-9a-f]{8}$/);
  });

  it('makes dictionary keys the table stores accept from any name', () => {
    for (const name of ['AC/DC', 'Ben & Jerry’s', '日本酒#1?', "M&M's"]) {
      expect(() => assertValidKey('rowKey', dictionaryKey(name))).not.toThrow();
    }
    expect(dictionaryKey("Kellogg's")).toBe(dictionaryKey('KELLOGG S'));
  });
});
