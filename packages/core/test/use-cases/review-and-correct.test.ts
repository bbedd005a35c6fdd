import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  DEFAULT_UPLOAD_QUOTAS,
  ForbiddenError,
  TooManyRequestsError,
  deleteItem,
  getAnalysis,
  getAppData,
  markReviewed,
  mergeMerchants,
  moveReceipt,
  reanalyseReceipt,
  saveItem,
  updateMerchant,
  updateReceipt,
  uploadReceipt,
  type AnalysisResult,
  type AppData,
} from '../../src';
import { STALE_EDIT_MESSAGE } from '../../src/contract/edits';
import { dataUrlOf, fakeReceiptImage, identity, type FakeReceipt } from '../support/fakes';
import { figuresOf, recomputeFromRows } from '../support/recompute';
import { createWorld } from '../support/world';

const alice = identity('alice');
const bob = identity('bob');
const CATALOG = [
  { name: 'Coca-Cola', owning_corporation: 'The Coca-Cola Company' },
  { name: 'Heinz', owning_corporation: 'Kraft Heinz' },
  { name: 'Fizzo', owning_corporation: 'Fizz Corp', owners_by_country: { BE: 'Pop Benelux' } },
];

async function setUp(receipts: [string, FakeReceipt][]) {
  const world = await createWorld();
  // Like the real analyzers, the fake's total check is the receipt's own arithmetic.
  const analyze = world.analyzer.analyze.bind(world.analyzer);
  world.analyzer.analyze = async (image) => {
    const result = await analyze(image);
    const sum = result.items.reduce((s, i) => s + (i.total_price ?? 0), 0);
    return {
      ...result,
      receipt: {
        ...result.receipt,
        total_checks_out: Math.abs(sum - (result.receipt.total_amount ?? 0)) < 0.01,
      },
    };
  };
  const deps = { ...world.deps, brandCatalog: CATALOG };
  for (const [fileName, receipt] of receipts) {
    await uploadReceipt(world.deps, alice, {
      userId: 'alice',
      fileName,
      imgSrc: dataUrlOf(fakeReceiptImage(receipt)),
    });
  }
  await world.drain();
  const data = () => getAppData(world.deps, alice, { userId: 'alice' });
  const receipt = async (fileName: string) =>
    (await data()).reportReceipts.find((r) => r.receipt_id === `alice~${fileName}`)!;
  return { world, deps, data, receipt };
}

const lidl = (total: number, date = '2024-04-02'): FakeReceipt => ({
  merchant: 'LIDL',
  postal: '1000',
  date,
  total,
  items: [
    { description: 'COLA', price: 2, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' },
    { description: 'BREAD', price: total - 2 },
  ],
});

async function expectConsistent(world: Awaited<ReturnType<typeof createWorld>>, data: AppData) {
  expect(figuresOf(data)).toEqual(await recomputeFromRows(world.store, 'alice'));
}

describe('correcting a receipt', () => {
  it('sets a misread total; reports follow, the field is marked edited and the review follows the receipt', async () => {
    const { world, deps, data, receipt } = await setUp([['1-receipt.jpg', lidl(5)]]);
    const before = await receipt('1-receipt.jpg');
    const answer = await updateReceipt(deps, alice, {
      userId: 'alice',
      receiptId: before.receipt_id,
      etag: before.etag!,
      changes: { total_amount: 50, transaction_date: '2024-04-03' },
    });
    expect(answer.etag).not.toBe(before.etag);
    const after = await data();
    const edited = after.reportReceipts[0]!;
    expect(edited.total_amount).toBe(50);
    expect(edited.edited).toEqual(['total_amount', 'transaction_date']);
    // The item of 5 no longer adds up to the total the person set: the receipt stays in review.
    expect(edited.total_checks_out).toBe(false);
    expect(edited.needs_review).toBe(true);
    expect(edited.review_reasons).toEqual(['total_check_fails']);
    expect(after.reportMerchants[0]!.merchant_total_amount).toBe(50);
    expect(after.reportMerchants[0]!.merchant_last_visit).toBe('2024-04-03');
    await expectConsistent(world, after);
    // The analysis as the analyzer wrote it is untouched.
    const analysis = (await getAnalysis(deps, alice, {
      userId: 'alice',
      receiptId: before.receipt_id,
    })) as { result: AnalysisResult };
    expect(analysis.result.receipt.total_amount).toBe(5);
  });

  it('refuses a stale edit with 409 and the words to reload, changing nothing', async () => {
    const { deps, data, receipt } = await setUp([['1-receipt.jpg', lidl(5)]]);
    const read = await receipt('1-receipt.jpg');
    const edit = { userId: 'alice', receiptId: read.receipt_id, etag: read.etag! };
    await updateReceipt(deps, alice, { ...edit, changes: { total_amount: 6 } });
    const snapshot = await data();
    const staleEdit = updateReceipt(deps, alice, { ...edit, changes: { total_amount: 7 } });
    await expect(staleEdit).rejects.toBeInstanceOf(ConflictError);
    await expect(staleEdit).rejects.toThrow(STALE_EDIT_MESSAGE);
    await expect(
      saveItem(deps, alice, {
        ...edit,
        item: { description: 'X', quantity: 1, unit_price: 1, total_price: 1, brand: null },
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(await data()).toEqual(snapshot);
  });

  it("refuses another user's receipt with 403", async () => {
    const { deps, receipt } = await setUp([['1-receipt.jpg', lidl(5)]]);
    const read = await receipt('1-receipt.jpg');
    await expect(
      updateReceipt(deps, bob, {
        userId: 'bob',
        receiptId: read.receipt_id,
        etag: read.etag!,
        changes: { total_amount: 1 },
      }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      markReviewed(deps, bob, { userId: 'alice', receiptId: read.receipt_id, etag: read.etag! }),
    ).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("gives a brand a person sets the owner it has in the receipt's country", async () => {
    const { deps, data, receipt } = await setUp([['1-receipt.jpg', lidl(5)]]);
    const read = await receipt('1-receipt.jpg');
    // The fake analyzer reads every receipt as Belgian, where another corporation owns Fizzo.
    const added = await saveItem(deps, alice, {
      userId: 'alice',
      receiptId: read.receipt_id,
      etag: read.etag!,
      item: { description: 'FIZZ 1L', quantity: 1, unit_price: 1, total_price: 1, brand: 'fizzo' },
    });
    const now = await data();
    expect(now.reportProductItems.find((i) => i.item_id === added.itemId)?.brand).toBe('Fizzo');
    expect(now.brands.find((b) => b.name === 'Fizzo')).toMatchObject({ owning_corporation: 'Pop Benelux' });
    expect(now.corporations.map((c) => c.name)).toContain('Pop Benelux');
    expect(now.corporations.map((c) => c.name)).not.toContain('Fizz Corp');
  });

  it('adds, edits and deletes items: brand owners from the dataset, item count and total check follow', async () => {
    const { world, deps, data, receipt } = await setUp([['1-receipt.jpg', lidl(5)]]);
    let read = await receipt('1-receipt.jpg');
    const base = { userId: 'alice', receiptId: read.receipt_id };
    const added = await saveItem(deps, alice, {
      ...base,
      etag: read.etag!,
      item: { description: 'KETCHUP', quantity: 2, unit_price: 1.5, total_price: 3, brand: 'heinz' },
    });
    let now = await data();
    const ketchup = now.reportProductItems.find((i) => i.item_id === added.itemId)!;
    expect(ketchup.brand).toBe('Heinz');
    expect(now.brands.find((b) => b.name === 'Heinz')).toMatchObject({
      owning_corporation: 'Kraft Heinz',
      purchases: 1,
      total: 3,
    });
    expect(now.corporations.map((c) => c.name)).toContain('Kraft Heinz');
    // 2 + 3 + 3 = 8, not the printed 5.
    expect(now.reportReceipts[0]!.total_checks_out).toBe(false);
    await expectConsistent(world, now);

    read = await receipt('1-receipt.jpg');
    await saveItem(deps, alice, {
      ...base,
      etag: read.etag!,
      itemId: added.itemId,
      item: { description: 'KETCHUP', quantity: 1, unit_price: 0, total_price: 0, brand: 'My Own Brand' },
    });
    now = await data();
    expect(now.brands.find((b) => b.name === 'Heinz')).toBeUndefined();
    expect(now.brands.find((b) => b.name === 'My Own Brand')).toMatchObject({ owning_corporation: null });
    expect(now.reportReceipts[0]!.total_checks_out).toBe(true);

    read = await receipt('1-receipt.jpg');
    const cola = now.reportProductItems.find((i) => i.brand === 'Coca-Cola')!;
    await deleteItem(deps, alice, { ...base, etag: read.etag!, itemId: cola.item_id });
    now = await data();
    expect(now.reportProductItems).toHaveLength(2);
    expect(now.brands.find((b) => b.name === 'Coca-Cola')).toBeUndefined();
    expect(now.corporations.map((c) => c.name)).not.toContain('The Coca-Cola Company');
    expect(now.reportReceipts[0]!.edited).toEqual(['items']);
    await expectConsistent(world, now);
    // The item count on the row matches, so the report never reads the receipt's partition again.
    const row = await world.store.getEntity('Receipts', 'alice', read.receipt_id);
    expect(row?.item_count).toBe(2);
  });

  it('moves, renames and merges merchants; every figure matches a recomputation from the rows', async () => {
    const { world, deps, data, receipt } = await setUp([
      ['1-receipt.jpg', lidl(5, '2024-04-01')],
      ['2-receipt.jpg', { ...lidl(7, '2024-04-05'), merchant: 'L1DL', postal: null }],
      ['3-receipt.jpg', { ...lidl(9, '2024-04-09'), merchant: 'LIDL Ixelles', postal: '1050' }],
    ]);
    let now = await data();
    expect(now.reportMerchants).toHaveLength(3);
    const byName = (name: string) => now.reportMerchants.find((m) => m.name === name)!;

    // A misread name on one receipt: moved to the merchant of the right name, the misread one goes.
    const second = await receipt('2-receipt.jpg');
    await updateReceipt(deps, alice, {
      userId: 'alice',
      receiptId: second.receipt_id,
      etag: second.etag!,
      changes: { merchant_name: 'Lidl' },
    });
    now = await data();
    expect(now.reportMerchants.map((m) => m.name).sort()).toEqual(['LIDL', 'LIDL Ixelles']);
    expect(byName('LIDL').merchant_total_amount).toBe(12);
    await expectConsistent(world, now);

    // Rename the kept one and give it an address.
    await updateMerchant(deps, alice, {
      userId: 'alice',
      merchantId: byName('LIDL').merchant_id,
      etag: byName('LIDL').etag!,
      changes: { name: 'Lidl Brussels', street_address: 'Rue Neuve 1', city: 'Brussels' },
    });
    now = await data();
    expect(byName('Lidl Brussels').street_address).toBe('Rue Neuve 1');
    expect(now.reportProductItems.filter((i) => i.merchant_name === 'Lidl Brussels')).toHaveLength(4);

    // Move the third receipt there, then back, then merge the two merchants.
    const third = await receipt('3-receipt.jpg');
    const ixelles = byName('LIDL Ixelles');
    await moveReceipt(deps, alice, {
      userId: 'alice',
      receiptId: third.receipt_id,
      etag: third.etag!,
      merchantId: byName('Lidl Brussels').merchant_id,
    });
    now = await data();
    // The merchant's only receipt moved away: the merchant went with it.
    expect(now.reportMerchants.map((m) => m.name)).toEqual(['Lidl Brussels']);
    expect(byName('Lidl Brussels').merchant_total_amount).toBe(21);
    expect(byName('Lidl Brussels').merchant_first_visit).toBe('2024-04-01');
    expect(byName('Lidl Brussels').merchant_last_visit).toBe('2024-04-09');
    expect(ixelles.merchant_id).not.toBe(byName('Lidl Brussels').merchant_id);
    await expectConsistent(world, now);

    // A second shop again (a new name), then merged into the first.
    const first = await receipt('1-receipt.jpg');
    await updateReceipt(deps, alice, {
      userId: 'alice',
      receiptId: first.receipt_id,
      etag: first.etag!,
      changes: { merchant_name: 'Lidl Bxl' },
    });
    now = await data();
    expect(now.reportMerchants).toHaveLength(2);
    const kept = byName('Lidl Brussels');
    const duplicate = byName('Lidl Bxl');
    await expect(
      mergeMerchants(deps, alice, {
        userId: 'alice',
        merchantId: kept.merchant_id,
        etag: kept.etag!,
        duplicateId: duplicate.merchant_id,
        duplicateEtag: 'stale',
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    await mergeMerchants(deps, alice, {
      userId: 'alice',
      merchantId: kept.merchant_id,
      etag: kept.etag!,
      duplicateId: duplicate.merchant_id,
      duplicateEtag: duplicate.etag!,
    });
    now = await data();
    expect(now.reportMerchants.map((m) => [m.name, m.merchant_total_amount])).toEqual([
      ['Lidl Brussels', 21],
    ]);
    expect(now.reportReceipts.every((r) => r.merchant_name === 'Lidl Brussels')).toBe(true);
    expect(await world.store.getEntity('Merchants', 'alice', duplicate.merchant_id)).toBeNull();
    await expectConsistent(world, now);
  });

  it('a currency correction moves the amounts to the new currency everywhere', async () => {
    const { world, deps, data, receipt } = await setUp([
      ['1-receipt.jpg', lidl(5)],
      ['2-receipt.jpg', lidl(8)],
    ]);
    const read = await receipt('1-receipt.jpg');
    await updateReceipt(deps, alice, {
      userId: 'alice',
      receiptId: read.receipt_id,
      etag: read.etag!,
      changes: { currency_code: 'GBP' },
    });
    const now = await data();
    expect(now.reportMerchants[0]!.merchant_totals_by_currency).toEqual({ EUR: 8, GBP: 5 });
    expect(now.brands.find((b) => b.name === 'Coca-Cola')!.totals_by_currency).toEqual({ EUR: 2, GBP: 2 });
    await expectConsistent(world, now);
  });
});

describe('the review queue', () => {
  it('flags what the analysis doubted; marking reviewed or saving an edit clears it', async () => {
    const doubtful = { ...lidl(5), total: 99 }; // items add to 5, not 99
    const { deps, data, receipt } = await setUp([
      ['1-receipt.jpg', doubtful],
      ['2-receipt.jpg', { ...doubtful, date: '2024-04-09' }],
      ['3-receipt.jpg', lidl(5)],
    ]);
    let now = await data();
    expect(now.reportReceipts.filter((r) => r.needs_review).map((r) => r.review_reasons)).toEqual([
      ['total_check_fails'],
      ['total_check_fails'],
    ]);
    const one = await receipt('1-receipt.jpg');
    await markReviewed(deps, alice, { userId: 'alice', receiptId: one.receipt_id, etag: one.etag! });
    const two = await receipt('2-receipt.jpg');
    await updateReceipt(deps, alice, {
      userId: 'alice',
      receiptId: two.receipt_id,
      etag: two.etag!,
      changes: { total_amount: 5 },
    });
    now = await data();
    expect(now.reportReceipts.filter((r) => r.needs_review)).toEqual([]);
    expect(now.reportReceipts.find((r) => r.receipt_id === two.receipt_id)!.total_checks_out).toBe(true);
  });
});

describe('analysing again', () => {
  it('keeps the fields a person set, replaces the rest and says what changed', async () => {
    const { world, deps, data, receipt } = await setUp([['1-receipt.jpg', lidl(5, '2024-04-02')]]);
    const read = await receipt('1-receipt.jpg');
    await updateReceipt(deps, alice, {
      userId: 'alice',
      receiptId: read.receipt_id,
      etag: read.etag!,
      changes: { total_amount: 5.5 },
    });
    // The analyzer now reads another date and total from the same image (say, another engine).
    const analyze = world.analyzer.analyze.bind(world.analyzer);
    world.analyzer.analyze = async (image) => {
      const result = await analyze(image);
      return { ...result, receipt: { ...result.receipt, total_amount: 4, transaction_date: '2024-04-12' } };
    };
    const current = await receipt('1-receipt.jpg');
    await reanalyseReceipt(deps, alice, {
      userId: 'alice',
      receiptId: read.receipt_id,
      etag: current.etag!,
    });
    // Edits wait while it runs.
    await expect(
      markReviewed(deps, alice, { userId: 'alice', receiptId: read.receipt_id, etag: current.etag! }),
    ).rejects.toThrow(/being analysed again/);
    expect((await world.drain()).map((r) => r.outcome)).toEqual(['analysed']);
    const now = await data();
    const after = now.reportReceipts[0]!;
    expect(after.total_amount).toBe(5.5);
    expect(after.transaction_date).toBe('2024-04-12');
    expect(after.edited).toEqual(['total_amount']);
    expect(after.reanalysis_changes).toEqual([
      { field: 'transaction_date', before: '2024-04-02', after: '2024-04-12' },
    ]);
    await expectConsistent(world, now);
  });

  it('counts against the daily uploads and its own daily limit, refused with 429 past either', async () => {
    const { world, deps, receipt } = await setUp([['1-receipt.jpg', lidl(5)]]);
    const again = async (quotas: typeof DEFAULT_UPLOAD_QUOTAS) => {
      const current = await receipt('1-receipt.jpg');
      await reanalyseReceipt({ ...deps, quotas }, alice, {
        userId: 'alice',
        receiptId: current.receipt_id,
        etag: current.etag!,
      });
      await world.drain();
    };
    const refusal = (quotas: typeof DEFAULT_UPLOAD_QUOTAS) =>
      again(quotas).then(
        () => undefined,
        (error: unknown) => error as TooManyRequestsError,
      );
    const ownLimit = { ...DEFAULT_UPLOAD_QUOTAS, reanalysesPerDay: 2 };
    await again(ownLimit);
    await again(ownLimit);
    const third = await refusal(ownLimit);
    expect(third).toBeInstanceOf(TooManyRequestsError);
    expect(third!.code).toBe('DailyReanalysisQuota');
    expect(third!.message).toMatch(/analysed again today, the most per day.*00:00 UTC/);
    expect(third!.retryAfterSeconds).toBeGreaterThan(0);
    // One upload and two analyses again make three of the day's uploads.
    const uploadsLimit = { ...DEFAULT_UPLOAD_QUOTAS, uploadsPerDay: 3 };
    const past = await refusal(uploadsLimit);
    expect(past!.code).toBe('DailyUploadQuota');
    expect(past!.message).toMatch(/uploaded 3 receipts today \(analysing a receipt again counts as one\)/);
    await expect(
      uploadReceipt({ ...world.deps, quotas: uploadsLimit }, alice, {
        userId: 'alice',
        fileName: '2-receipt.jpg',
        imgSrc: dataUrlOf(fakeReceiptImage(lidl(7))),
      }),
    ).rejects.toThrow(/uploaded 3 receipts today/);
    // A refused request queued nothing.
    expect(await world.drain()).toEqual([]);
  });
});
