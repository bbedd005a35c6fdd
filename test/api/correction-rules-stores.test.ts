import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ForbiddenError,
  NotFoundError,
  repositories,
  type Repositories,
  TABLES,
  correctionRulesPartition,
  deleteAccount,
  deleteCorrectionRule,
  getReceiptDetail,
  listAllEntities,
  listCorrectionRules,
  mergeMerchants,
  moveReceipt,
  processScan,
  saveItem,
  saveReceipt,
  silentLogger,
  type ReportsCache,
  createReportCache,
  updateMerchant,
  uploadReceipt,
  type Identity,
  type ScanWorkerDeps,
  type TableStore,
} from '@receipts/core';
import { MAX_CORRECTION_RULES } from '@receipts/core/contract/corrections';
import { LocalBlobStore } from '@receipts/blob-local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FakeAnalyzer,
  RecordingQueue,
  dataUrlOf,
  fakeReceiptImage,
  identity,
  type FakeReceipt,
} from '../../packages/core/test/support/fakes';
import { STORE_BACKENDS } from '../support/store-backends';

/**
 * Rules learnt from corrections, on both real table stores (Azurite and dynalite): a correction makes
 * a rule of the person's, the next receipt they have analysed gets it, another user's never does, and
 * removing the rule (or the account) stops it.
 */

const jaya = (date: string, over: Partial<FakeReceipt> = {}): FakeReceipt => ({
  merchant: 'Jaya Grocer',
  postal: '50450',
  date,
  total: 12.9,
  currency: 'MYR',
  items: [
    { description: 'NESC CLASSIC 200G', price: 12.9 },
    { description: 'ROTI GARDENIA', price: 0 },
  ],
  ...over,
});

describe.each(STORE_BACKENDS)('correction rules on $name', ({ start }) => {
  let store: TableStore;
  let stop: () => Promise<void>;
  let blobDir: string;
  let deps: {
    store: TableStore;
    blobs: LocalBlobStore;
    queue: RecordingQueue;
    logger: typeof silentLogger;
    reportCache: ReportsCache;
  };
  let worker: ScanWorkerDeps;
  let repos: Repositories;

  const ann = identity('ann');
  // A user whose id starts with ann's: neither reaches the other's rules.
  const annex = identity('ann-x');

  beforeAll(async () => {
    ({ store, stop } = await start());
    blobDir = await mkdtemp(join(tmpdir(), 'receipts-blobs-'));
    deps = {
      store,
      blobs: new LocalBlobStore({ root: blobDir }),
      queue: new RecordingQueue(),
      logger: silentLogger,
      reportCache: createReportCache(),
    };
    worker = { ...deps, analyzer: new FakeAnalyzer(), maxAttempts: 1 };
    repos = repositories(store);
  });
  afterAll(async () => {
    await stop?.();
    if (blobDir) await rm(blobDir, { recursive: true, force: true });
  });

  async function scan(who: Identity, fileName: string, receipt: FakeReceipt) {
    await uploadReceipt(deps, who, {
      userId: who.uid,
      fileName,
      imgSrc: dataUrlOf(fakeReceiptImage(receipt)),
    });
    const result = await processScan(worker, deps.queue.jobs.shift()!.job);
    expect(result.outcome).toBe('analysed');
    return getReceiptDetail(deps, who, { userId: who.uid, receiptId: `${who.uid}~${fileName}` });
  }

  it('makes a brand correction a rule that the next receipt at that shop gets, marked', async () => {
    const first = await scan(ann, '1-receipt.jpg', jaya('2026-02-01'));
    const coffee = first.items.find((i) => i.description === 'NESC CLASSIC 200G')!;
    expect(coffee.brand).toBeNull();
    await saveItem(deps, ann, {
      userId: 'ann',
      receiptId: first.receipt.receipt_id,
      etag: first.receipt.etag!,
      itemId: coffee.item_id,
      item: {
        description: coffee.description,
        quantity: 1,
        unit_price: null,
        total_price: 12.9,
        brand: 'Nescafé',
      },
    });
    const { rules, limit } = await listCorrectionRules(deps, ann, { userId: 'ann' });
    expect(limit).toBe(MAX_CORRECTION_RULES);
    expect(rules).toEqual([
      expect.objectContaining({
        kind: 'item',
        text: 'NESC CLASSIC 200G',
        shop: 'Jaya Grocer',
        brand: 'Nescafé',
      }),
    ]);

    // Printed a little differently on the next receipt: the same item all the same.
    const second = await scan(ann, '2-receipt.jpg', {
      ...jaya('2026-02-08'),
      items: [{ description: 'nesc classic  200g', price: 12.9 }],
    });
    expect(second.items[0]).toMatchObject({ brand: 'Nescafé', from_corrections: true });
    // The corrected item itself is the person's, not a learnt value.
    const again = await getReceiptDetail(deps, ann, { userId: 'ann', receiptId: first.receipt.receipt_id });
    expect(again.items.find((i) => i.item_id === coffee.item_id)).toMatchObject({ brand: 'Nescafé' });
    expect(again.items.find((i) => i.item_id === coffee.item_id)!.from_corrections).toBeUndefined();
  });

  it("never applies one user's rule to another's receipt, nor lets them list or remove it", async () => {
    const other = await scan(annex, '1-receipt.jpg', jaya('2026-02-08'));
    expect(other.items[0]).toMatchObject({ description: 'NESC CLASSIC 200G', brand: null });
    expect(other.items[0]!.from_corrections).toBeUndefined();
    expect(await listCorrectionRules(deps, annex, { userId: 'ann-x' })).toMatchObject({ rules: [] });
    await expect(listCorrectionRules(deps, annex, { userId: 'ann' })).rejects.toThrow(ForbiddenError);
    const [rule] = (await listCorrectionRules(deps, ann, { userId: 'ann' })).rules;
    await expect(deleteCorrectionRule(deps, annex, { userId: 'ann-x', ruleId: rule!.id })).rejects.toThrow(
      NotFoundError,
    );
    expect((await listCorrectionRules(deps, ann, { userId: 'ann' })).rules).toHaveLength(1);
  });

  it('stops applying a rule once it is removed', async () => {
    const [rule] = (await listCorrectionRules(deps, ann, { userId: 'ann' })).rules;
    await expect(deleteCorrectionRule(deps, ann, { userId: 'ann', ruleId: rule!.id })).resolves.toEqual({
      deleted: true,
    });
    await expect(deleteCorrectionRule(deps, ann, { userId: 'ann', ruleId: rule!.id })).rejects.toThrow(
      NotFoundError,
    );
    const third = await scan(ann, '3-receipt.jpg', jaya('2026-02-15'));
    expect(third.items[0]).toMatchObject({ brand: null });
  });

  it('learns a description and brand set in the whole-receipt form', async () => {
    const read = await scan(ann, '8-receipt.jpg', jaya('2026-02-16'));
    await saveReceipt(deps, ann, {
      userId: 'ann',
      receiptId: read.receipt.receipt_id,
      etag: read.receipt.etag!,
      changes: {},
      items: read.items.map((i) => ({
        itemId: i.item_id,
        item: {
          description: i.description === 'ROTI GARDENIA' ? 'Gardenia white bread' : i.description,
          quantity: i.quantity,
          unit_price: i.unit_price,
          total_price: i.total_price,
          brand: i.description === 'ROTI GARDENIA' ? 'Gardenia' : i.brand,
        },
      })),
    });
    const next = await scan(ann, '9-receipt.jpg', jaya('2026-02-17'));
    expect(next.items.map((i) => [i.description, i.brand, i.from_corrections ?? false])).toEqual([
      ['NESC CLASSIC 200G', null, false],
      ['Gardenia white bread', 'Gardenia', true],
    ]);
  });

  it('learns a renamed and a merged merchant: the same spelling goes to the merchant it became', async () => {
    const misread = await scan(
      ann,
      '4-receipt.jpg',
      jaya('2026-02-20', { merchant: 'JAYA GR0CER', postal: null }),
    );
    const merchant = await repos.merchants.getMerchant('ann', misread.receipt.merchant_id);
    const jayaRow = await repos.merchants.getMerchant(
      'ann',
      (await scan(ann, '5-receipt.jpg', jaya('2026-02-21'))).receipt.merchant_id,
    );
    await mergeMerchants(deps, ann, {
      userId: 'ann',
      merchantId: jayaRow!.merchant_id,
      etag: jayaRow!.etag!,
      duplicateId: merchant!.merchant_id,
      duplicateEtag: merchant!.etag!,
    });
    const next = await scan(
      ann,
      '6-receipt.jpg',
      jaya('2026-02-22', { merchant: 'Jaya Gr0cer', postal: null }),
    );
    expect(next.receipt).toMatchObject({
      merchant_id: jayaRow!.merchant_id,
      merchant_from_corrections: true,
    });

    const renamed = await repos.merchants.getMerchant('ann', jayaRow!.merchant_id);
    await updateMerchant(deps, ann, {
      userId: 'ann',
      merchantId: renamed!.merchant_id,
      etag: renamed!.etag!,
      changes: { name: 'Jaya Grocer Bangsar' },
    });
    const later = await scan(
      ann,
      '7-receipt.jpg',
      jaya('2026-02-23', { merchant: 'JAYA GR0CER', postal: null }),
    );
    expect(later.receipt).toMatchObject({
      merchant_name: 'Jaya Grocer Bangsar',
      merchant_from_corrections: true,
    });
    const other = await scan(
      annex,
      '2-receipt.jpg',
      jaya('2026-02-23', { merchant: 'JAYA GR0CER', postal: null }),
    );
    expect(other.receipt.merchant_name).toBe('JAYA GR0CER');
    expect(other.receipt.merchant_from_corrections).toBeUndefined();
  });

  it('learns a receipt moved off the merchant it alone had, and nothing from a move that leaves receipts behind', async () => {
    const mo = identity('mo');
    const village = (date: string, merchant: string) =>
      jaya(date, { merchant, postal: merchant === 'Village Grocer' ? '50450' : null });
    const kept = await scan(mo, '1-receipt.jpg', village('2026-03-01', 'Village Grocer'));
    const misread = await scan(mo, '2-receipt.jpg', village('2026-03-02', 'V1LLAGE GR0CER'));
    expect(misread.receipt.merchant_id).not.toBe(kept.receipt.merchant_id);
    await moveReceipt(deps, mo, {
      userId: 'mo',
      receiptId: misread.receipt.receipt_id,
      etag: misread.receipt.etag!,
      merchantId: kept.receipt.merchant_id,
    });
    expect((await listCorrectionRules(deps, mo, { userId: 'mo' })).rules).toEqual([
      expect.objectContaining({ kind: 'merchant', text: 'V1LLAGE GR0CER', merchant_name: 'Village Grocer' }),
    ]);
    const next = await scan(mo, '3-receipt.jpg', village('2026-03-03', 'V1LLAGE GR0CER'));
    expect(next.receipt).toMatchObject({
      merchant_id: kept.receipt.merchant_id,
      merchant_from_corrections: true,
    });

    // Two receipts of one shop; moving one of them corrects that receipt only.
    await scan(mo, '4-receipt.jpg', village('2026-03-04', 'KEDAI RUNCIT AH SENG'));
    const one = await scan(mo, '5-receipt.jpg', village('2026-03-05', 'KEDAI RUNCIT AH SENG'));
    await moveReceipt(deps, mo, {
      userId: 'mo',
      receiptId: one.receipt.receipt_id,
      etag: one.receipt.etag!,
      merchantId: kept.receipt.merchant_id,
    });
    expect((await listCorrectionRules(deps, mo, { userId: 'mo' })).rules).toHaveLength(1);
    const after = await scan(mo, '6-receipt.jpg', village('2026-03-06', 'KEDAI RUNCIT AH SENG'));
    expect(after.receipt.merchant_name).toBe('KEDAI RUNCIT AH SENG');
  });

  it("removes the rules with the account, and no one else's", async () => {
    const rulesOf = (userId: string) =>
      listAllEntities(store, TABLES.users, { partitionKey: correctionRulesPartition(userId) });
    expect((await rulesOf('ann')).length).toBeGreaterThan(0);
    const annexBefore = (await listCorrectionRules(deps, annex, { userId: 'ann-x' })).rules;
    await deleteAccount({ ...deps, identity: { deleteAccount: async () => {} } }, ann, { userId: 'ann' });
    expect(await rulesOf('ann')).toEqual([]);
    expect((await listCorrectionRules(deps, annex, { userId: 'ann-x' })).rules).toEqual(annexBefore);
  });
});
