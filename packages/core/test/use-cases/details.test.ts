import { describe, expect, it } from 'vitest';
import {
  ForbiddenError,
  NotFoundError,
  getAppData,
  getItemDetail,
  getMerchantDetail,
  getReceiptDetail,
  listMerchants,
  moveReceipt,
  uploadReceipt,
} from '../../src';
import { dataUrlOf, fakeReceiptImage, identity, type FakeReceipt } from '../support/fakes';
import { createWorld } from '../support/world';

const alice = identity('alice');
const bob = identity('bob');

const lidl = (date: string, total: number, over: Partial<FakeReceipt> = {}): FakeReceipt => ({
  merchant: 'LIDL',
  postal: '1000',
  city: 'Brussels',
  date,
  total,
  items: [
    { description: 'COLA', price: 2, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' },
    { description: 'BREAD', price: total - 2 },
  ],
  ...over,
});

async function setUp() {
  const world = await createWorld();
  const scan = async (who: typeof alice, fileName: string, receipt: FakeReceipt) => {
    await uploadReceipt(world.deps, who, {
      userId: who.uid,
      fileName,
      imgSrc: dataUrlOf(fakeReceiptImage({ ...receipt, photo: fileName })),
    });
    await world.drain();
  };
  await scan(alice, '1-lidl.jpg', lidl('2024-04-02', 5));
  await scan(alice, '2-lidl.jpg', lidl('2024-04-09', 7.5));
  await scan(alice, '3-tesco.jpg', {
    merchant: 'TESCO',
    postal: 'SW1',
    city: 'London',
    date: '2024-04-10',
    currency: 'GBP',
    total: 3,
    items: [{ description: 'BEANS', price: 3, brand: 'Heinz', owner: 'Kraft Heinz' }],
  });
  await scan(bob, '9-secret.jpg', lidl('2024-04-03', 99));
  const data = await getAppData(world.deps, alice, { userId: 'alice' });
  const bobData = await getAppData(world.deps, bob, { userId: 'bob' });
  return { world, data, bobData };
}

describe('the detail lookups', () => {
  it("answers one receipt with its items, its merchant and the user's visits and totals there", async () => {
    const { world, data } = await setUp();
    const answer = await getReceiptDetail(world.deps, alice, {
      userId: 'alice',
      receiptId: 'alice~2-lidl.jpg',
    });
    const expected = data.reportReceipts.find((r) => r.receipt_id === 'alice~2-lidl.jpg')!;
    expect(answer.version).toBe(data.version);
    expect(answer.receipt).toEqual(expected);
    expect(answer.items.map((i) => [i.description, i.total_price])).toEqual([
      ['COLA', 2],
      ['BREAD', 5.5],
    ]);
    expect(answer.items).toEqual(data.reportProductItems.filter((i) => i.receipt_id === 'alice~2-lidl.jpg'));
    expect(answer.merchant.merchant).toEqual(
      data.reportMerchants.find((m) => m.merchant_id === expected.merchant_id),
    );
    expect(answer.merchant.visits).toBe(2);
    expect(answer.merchant.totals_by_currency).toEqual({ EUR: 12.5 });
    expect(answer.duplicate_of).toBeNull();
  });

  it('names the receipt a possible duplicate looks like', async () => {
    const { world } = await setUp();
    await uploadReceipt(world.deps, alice, {
      userId: 'alice',
      fileName: '4-again.jpg',
      imgSrc: dataUrlOf(fakeReceiptImage({ ...lidl('2024-04-02', 5), photo: 'again' })),
    });
    await world.drain();
    const answer = await getReceiptDetail(world.deps, alice, {
      userId: 'alice',
      receiptId: 'alice~4-again.jpg',
    });
    expect(answer.duplicate_of?.receipt_id).toBe('alice~1-lidl.jpg');
    expect(answer.merchant.visits).toBe(3);
  });

  it('follows an edit: a receipt moved to another merchant shows that merchant and its new totals', async () => {
    const { world, data } = await setUp();
    const receipt = data.reportReceipts.find((r) => r.receipt_id === 'alice~1-lidl.jpg')!;
    const tesco = data.reportMerchants.find((m) => m.name === 'TESCO')!;
    await moveReceipt(world.deps, alice, {
      userId: 'alice',
      receiptId: receipt.receipt_id,
      etag: receipt.etag!,
      merchantId: tesco.merchant_id,
    });
    const answer = await getReceiptDetail(world.deps, alice, {
      userId: 'alice',
      receiptId: receipt.receipt_id,
    });
    expect(answer.merchant.merchant_id).toBe(tesco.merchant_id);
    expect(answer.merchant.visits).toBe(2);
    expect(answer.merchant.totals_by_currency).toEqual({ EUR: 5, GBP: 3 });
  });

  it("never shows another user's receipt, merchant or item: 404 for their ids, 403 for their userId", async () => {
    const { world, bobData } = await setUp();
    const bobsReceipt = bobData.reportReceipts[0]!;
    const bobsItem = bobData.reportProductItems[0]!;
    await expect(
      getReceiptDetail(world.deps, alice, { userId: 'alice', receiptId: bobsReceipt.receipt_id }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      getItemDetail(world.deps, alice, { userId: 'alice', itemId: bobsItem.item_id }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      getReceiptDetail(world.deps, alice, { userId: 'bob', receiptId: bobsReceipt.receipt_id }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      getMerchantDetail(world.deps, alice, { userId: 'bob', merchantId: bobsReceipt.merchant_id }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(listMerchants(world.deps, alice, { userId: 'bob' })).rejects.toBeInstanceOf(ForbiddenError);
    // Bob's merchant has the same name and postcode as Alice's LIDL, so the same id: Alice sees only
    // her own receipts there, never Bob's 99 EUR.
    const lidlOfAlice = await getMerchantDetail(world.deps, alice, {
      userId: 'alice',
      merchantId: bobsReceipt.merchant_id,
    });
    expect(lidlOfAlice.merchant?.user_id).toBe('alice');
    expect(lidlOfAlice.totals_by_currency).toEqual({ EUR: 12.5 });
  });

  it('says which id is unknown', async () => {
    const { world } = await setUp();
    await expect(
      getReceiptDetail(world.deps, alice, { userId: 'alice', receiptId: 'alice~0-never.jpg' }),
    ).rejects.toThrow(/no such receipt among yours/);
    await expect(
      getMerchantDetail(world.deps, alice, { userId: 'alice', merchantId: 'no-such-merchant' }),
    ).rejects.toThrow(/no such merchant among yours/);
    await expect(
      getItemDetail(world.deps, alice, { userId: 'alice', itemId: 'alice~1-lidl.jpg~99' }),
    ).rejects.toThrow(/no such item among yours/);
  });

  it("answers a merchant's summary, an item with its receipt and brand owner, and the merchants by name", async () => {
    const { world, data } = await setUp();
    const tesco = data.reportMerchants.find((m) => m.name === 'TESCO')!;
    const merchant = await getMerchantDetail(world.deps, alice, {
      userId: 'alice',
      merchantId: tesco.merchant_id,
    });
    expect(merchant).toEqual({
      version: data.version,
      merchant_id: tesco.merchant_id,
      merchant: tesco,
      visits: 1,
      totals_by_currency: { GBP: 3 },
    });
    const beans = data.reportProductItems.find((i) => i.description === 'BEANS')!;
    const item = await getItemDetail(world.deps, alice, { userId: 'alice', itemId: beans.item_id });
    expect(item.item).toEqual(beans);
    expect(item.receipt.receipt_id).toBe('alice~3-tesco.jpg');
    expect(item.owning_corporation).toBe('Kraft Heinz');
    const merchants = await listMerchants(world.deps, alice, { userId: 'alice' });
    expect(merchants.map((m) => [m.name, m.city])).toEqual([
      ['LIDL', 'Brussels'],
      ['TESCO', 'London'],
    ]);
    expect(merchants.every((m) => typeof m.etag === 'string' && m.etag.length > 0)).toBe(true);
  });
});
