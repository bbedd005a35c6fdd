import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  deleteReceiptData,
  getAppData,
  keepBothReceipts,
  markReviewed,
  reanalyseReceipt,
  updateReceipt,
  uploadReceipt,
} from '../../src';
import { dataUrlOf, fakeReceiptImage, identity, type FakeReceipt } from '../support/fakes';
import { createWorld } from '../support/world';

const alice = identity('alice');
const bob = identity('bob');

const shop = (over: Partial<FakeReceipt> = {}): FakeReceipt => ({
  merchant: 'LIDL',
  postal: '1000',
  date: '2024-04-02',
  total: 12.5,
  items: [{ description: 'BREAD', price: 12.5 }],
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
  const receipt = async (fileName: string, who = alice) =>
    (await getAppData(world.deps, who, { userId: who.uid })).reportReceipts.find(
      (r) => r.receipt_id === `${who.uid}~${fileName}`,
    );
  const edit = async (fileName: string) => {
    const r = (await receipt(fileName))!;
    return { userId: 'alice', receiptId: r.receipt_id, etag: r.etag! };
  };
  return { world, scan, receipt, edit };
}

describe('possible duplicates', () => {
  it('flags a second receipt of the same merchant, date and total, naming the first, and puts it up for review', async () => {
    const { scan, receipt } = await setUp();
    await scan(alice, '1-first.jpg', shop());
    await scan(alice, '2-second.jpg', shop());
    const first = await receipt('1-first.jpg');
    const second = await receipt('2-second.jpg');
    expect(first?.possible_duplicate_of).toBeNull();
    expect(second?.possible_duplicate_of).toBe('alice~1-first.jpg');
    expect(second?.needs_review).toBe(true);
    expect(second?.review_reasons).toContain('possible_duplicate');
  });

  it('does not flag receipts that differ in total, date, merchant or time, nor another user’s', async () => {
    const { scan, receipt } = await setUp();
    await scan(alice, '1-first.jpg', shop());
    await scan(
      alice,
      '2-other-total.jpg',
      shop({ total: 12.51, items: [{ description: 'B', price: 12.51 }] }),
    );
    await scan(alice, '3-other-day.jpg', shop({ date: '2024-04-03' }));
    await scan(alice, '4-other-shop.jpg', shop({ merchant: 'ALDI' }));
    await scan(alice, '5-other-time.jpg', shop({ time: '18:30:00' }));
    await scan(bob, '6-bobs.jpg', shop());
    for (const name of ['2-other-total.jpg', '3-other-day.jpg', '4-other-shop.jpg', '5-other-time.jpg'])
      expect((await receipt(name))?.possible_duplicate_of, name).toBeNull();
    expect((await receipt('6-bobs.jpg', bob))?.possible_duplicate_of).toBeNull();
  });

  it('compares times only where both receipts have one', async () => {
    const { scan, receipt } = await setUp();
    await scan(alice, '1-first.jpg', shop({ time: '' }));
    await scan(alice, '2-second.jpg', shop({ time: '18:30:00' }));
    expect((await receipt('2-second.jpg'))?.possible_duplicate_of).toBe('alice~1-first.jpg');
  });

  it('"Keep both" clears the warning and the review reason, and analysing again does not bring it back', async () => {
    const { world, scan, receipt, edit } = await setUp();
    await scan(alice, '1-first.jpg', shop());
    await scan(alice, '2-second.jpg', shop());
    await keepBothReceipts(world.deps, alice, await edit('2-second.jpg'));
    let second = await receipt('2-second.jpg');
    expect(second?.possible_duplicate_of).toBeNull();
    expect(second?.needs_review).toBe(false);
    expect(second?.review_reasons).toEqual([]);

    await reanalyseReceipt(world.deps, alice, await edit('2-second.jpg'));
    await world.drain();
    second = await receipt('2-second.jpg');
    expect(second?.possible_duplicate_of).toBeNull();
    // Nor is the first taken for a duplicate of the second when it is analysed again.
    await reanalyseReceipt(world.deps, alice, await edit('1-first.jpg'));
    await world.drain();
    expect((await receipt('1-first.jpg'))?.possible_duplicate_of).toBeNull();
  });

  it('"Keep both" with a stale etag is refused', async () => {
    const { world, scan, edit } = await setUp();
    await scan(alice, '1-first.jpg', shop());
    await scan(alice, '2-second.jpg', shop());
    const read = await edit('2-second.jpg');
    await markReviewed(world.deps, alice, read);
    await expect(keepBothReceipts(world.deps, alice, read)).rejects.toBeInstanceOf(ConflictError);
  });

  it('drops the warning once the earlier receipt is deleted, and a later scan no longer matches it', async () => {
    const { world, scan, receipt } = await setUp();
    await scan(alice, '1-first.jpg', shop());
    await scan(alice, '2-second.jpg', shop());
    await deleteReceiptData(world.deps, alice, { userId: 'alice', receiptId: 'alice~1-first.jpg' });
    expect((await receipt('2-second.jpg'))?.possible_duplicate_of).toBeNull();
    await deleteReceiptData(world.deps, alice, { userId: 'alice', receiptId: 'alice~2-second.jpg' });
    await scan(alice, '3-third.jpg', shop());
    expect((await receipt('3-third.jpg'))?.possible_duplicate_of).toBeNull();
  });

  it('follows an edit: correcting a misread total makes, or unmakes, a possible duplicate', async () => {
    const { world, scan, receipt, edit } = await setUp();
    await scan(alice, '1-first.jpg', shop());
    await scan(alice, '2-misread.jpg', shop({ total: 72.5, items: [{ description: 'BREAD', price: 12.5 }] }));
    expect((await receipt('2-misread.jpg'))?.possible_duplicate_of).toBeNull();
    await updateReceipt(world.deps, alice, {
      ...(await edit('2-misread.jpg')),
      changes: { total_amount: 12.5 },
    });
    expect((await receipt('2-misread.jpg'))?.possible_duplicate_of).toBe('alice~1-first.jpg');
    await updateReceipt(world.deps, alice, {
      ...(await edit('2-misread.jpg')),
      changes: { transaction_date: '2024-05-02' },
    });
    expect((await receipt('2-misread.jpg'))?.possible_duplicate_of).toBeNull();
    // The edited receipt is now listed under its new visit: a scan of that visit finds it.
    await scan(alice, '3-may.jpg', shop({ date: '2024-05-02' }));
    expect((await receipt('3-may.jpg'))?.possible_duplicate_of).toBe('alice~2-misread.jpg');
  });
});
