import { describe, expect, it } from 'vitest';
import { repositories, ValidationError, saveItem, silentLogger, updateReceipt } from '../../src';
import { saveItemBody, updateMerchantBody, updateReceiptBody } from '../../src/contract/edits';
import { identity } from '../support/fakes';
import { createWorld } from '../support/world';
import { WRITE_METHODS, failingAt, faultCounter } from '../../../../test/support/fault-ports';
import { readReport, seedFaultUser } from '../../../../test/support/fault-world';

const LONE = 'Heinz \ud800';

describe('text a store cannot hold', () => {
  it('is refused by the API contract with a message a person can act on', () => {
    const edit = { userId: 'u1', receiptId: 'u1~1700000000001-a.jpg', etag: 'x' };
    const item = { description: 'BEANS', quantity: 1, unit_price: 1, total_price: 1, brand: LONE };
    const parsed = saveItemBody.safeParse({ ...edit, item });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/brand holds a broken character/);
    expect(updateReceiptBody.safeParse({ ...edit, changes: { merchant_name: LONE } }).success).toBe(false);
    expect(
      updateMerchantBody.safeParse({ userId: 'u1', merchantId: 'm', etag: 'x', changes: { city: '\udc00x' } })
        .success,
    ).toBe(false);
    // A pair is a character like any other.
    expect(saveItemBody.safeParse({ ...edit, item: { ...item, brand: 'Café 😀' } }).success).toBe(true);
  });

  it('is a 400 before any write when a use case is called without the contract', async () => {
    const { store, blobs } = await createWorld();
    const world = await seedFaultUser(store, blobs, 'lone');
    const data = await readReport(world);
    const receipt = data.reportReceipts[0]!;
    const edit = { userId: 'lone', receiptId: receipt.receipt_id, etag: receipt.etag ?? '' };
    const counter = faultCounter();
    const deps = { store: failingAt(store, counter), blobs, logger: silentLogger };
    const item = { description: 'BEANS', quantity: 1, unit_price: 1, total_price: 1, brand: LONE };
    await expect(saveItem(deps, identity('lone'), { ...edit, item })).rejects.toThrow(ValidationError);
    await expect(
      updateReceipt(deps, identity('lone'), { ...edit, changes: { merchant_name: LONE } }),
    ).rejects.toThrow(/merchant_name holds a broken character/);
    expect(counter.methods.filter((m) => WRITE_METHODS.has(m))).toEqual([]);
    // The receipt is as it was, and editable with the etag the report gives.
    const row = await repositories(store).receipts.getReceipt('lone', receipt.receipt_id);
    expect(row?.etag).toBe(receipt.etag);
    await expect(
      updateReceipt(deps, identity('lone'), { ...edit, changes: { merchant_name: 'Heinz Shop' } }),
    ).resolves.toMatchObject({ receiptId: receipt.receipt_id });
  });
});
