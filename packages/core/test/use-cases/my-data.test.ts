import { describe, expect, it } from 'vitest';
import {
  AccountDeletedError,
  AnalyzerError,
  ConflictError,
  ForbiddenError,
  REQUIRED_TABLES,
  TABLES,
  ReceiptRepository,
  ServiceUnavailableError,
  deleteAccount,
  exportKey,
  deleteAccountBody,
  downloadMyData,
  downloadMyDataQuery,
  getAppData,
  listAllEntities,
  registerFcmToken,
  uploadReceipt,
  type ExportFile,
} from '../../src';
import { dataUrlOf, fakeReceiptImage, identity, type FakeReceipt as FakeReceiptLike } from '../support/fakes';
import { createWorld } from '../support/world';

type World = Awaited<ReturnType<typeof createWorld>>;

const alice = identity('alice');
const bob = identity('bob');

const shop = (merchant: string, total: number, extra: Partial<FakeReceiptLike> = {}): FakeReceiptLike => ({
  merchant,
  postal: '1000',
  date: '2024-04-02',
  total,
  tax: 0.12,
  items: [
    { description: `${merchant} BREAD`, price: total, brand: 'Coca-Cola', owner: 'The Coca-Cola Company' },
  ],
  ...extra,
});

async function scan(world: World, who: typeof alice, fileName: string, receipt: FakeReceiptLike) {
  await uploadReceipt(world.deps, who, {
    userId: who.uid,
    fileName,
    imgSrc: dataUrlOf(fakeReceiptImage(receipt)),
  });
  await world.drain();
}

/** Alice: two receipts, a failed scan, a queued scan, a push token and a built report; Bob: one receipt. */
async function seeded() {
  const world = await createWorld();
  await scan(world, alice, '1714000000001-receipt.jpg', shop('LIDL Brussel', 2.1));
  await scan(world, alice, '1714000000002-receipt.jpg', shop('Delhaize, "Ixelles"', 7.5));
  world.analyzer.failures = [new AnalyzerError('Unreadable.', { retryable: false })];
  await scan(world, alice, '1714000000003-receipt.jpg', shop('Broken', 1));
  await scan(world, bob, '1714000000001-receipt.jpg', shop('Aldi', 4));
  // Queued and not yet analysed.
  await uploadReceipt(world.deps, alice, {
    userId: 'alice',
    fileName: '1714000000004-receipt.jpg',
    imgSrc: dataUrlOf(fakeReceiptImage(shop('Carrefour', 3))),
  });
  await registerFcmToken(world.deps, alice, { userId: 'alice', fcmToken: 'alice-phone' });
  await registerFcmToken(world.deps, bob, { userId: 'bob', fcmToken: 'bob-phone' });
  await getAppData(world.deps, alice, { userId: 'alice' });
  await getAppData(world.deps, bob, { userId: 'bob' });
  const accounts = { deleted: [] as string[], failures: [] as Error[] };
  const deps = {
    ...world.deps,
    identity: {
      deleteAccount: async (uid: string) => {
        const failure = accounts.failures.shift();
        if (failure) throw failure;
        accounts.deleted.push(uid);
      },
    },
  };
  return { world, deps, accounts };
}

async function filesOf(files: AsyncIterable<ExportFile>): Promise<Map<string, string | Uint8Array>> {
  const all = new Map<string, string | Uint8Array>();
  for await (const file of files) all.set(file.path, file.data);
  return all;
}

/** Every row of every table that mentions the user id (keys or any property). */
async function rowsMentioning(world: World, uid: string): Promise<string[]> {
  const found: string[] = [];
  for (const table of REQUIRED_TABLES) {
    for (const row of await listAllEntities(world.store, table)) {
      const { etag: _etag, timestamp: _timestamp, ...rest } = row as Record<string, unknown>;
      if (JSON.stringify(rest).includes(uid)) found.push(`${table}: ${row.partitionKey} / ${row.rowKey}`);
    }
  }
  return found;
}

const blobsOf = (world: World, uid: string) => [...world.blobs.objects.keys()].filter((k) => k.includes(uid));

describe('downloadMyData', () => {
  it("gives every receipt, item, merchant, tax and image of the caller, and nothing of another user's", async () => {
    const { world } = await seeded();
    const data = await downloadMyData(world.deps, alice, { userId: 'alice', images: true });
    expect(data.fileName).toBe('receipt-tracker-data-2024-05-01.zip');
    const files = await filesOf(data.files);

    const receipts = JSON.parse(files.get('receipts.json') as string) as { receipt_id: string }[];
    expect(receipts.map((r) => r.receipt_id).sort()).toEqual([
      'alice~1714000000001-receipt.jpg',
      'alice~1714000000002-receipt.jpg',
    ]);
    expect(JSON.parse(files.get('items.json') as string)).toHaveLength(2);
    expect(JSON.parse(files.get('merchants.json') as string)).toHaveLength(2);
    expect(JSON.parse(files.get('taxes.json') as string)).toHaveLength(2);
    const scans = JSON.parse(files.get('scans.json') as string) as { fileName: string; status: string }[];
    expect(scans.map((s) => [s.fileName, s.status]).sort()).toEqual([
      ['1714000000003-receipt.jpg', 'Failed'],
      ['1714000000004-receipt.jpg', 'false'],
    ]);
    expect(JSON.parse(files.get('account.json') as string)).toMatchObject({
      user_id: 'alice',
      user_email: 'alice@example.com',
      counts: { receipts: 2, items: 2, merchants: 2, taxes: 2, scans: 2 },
    });

    // CSV as the report export writes it: BOM, header, CRLF, quoted fields, dot decimals.
    const receiptsCsv = files.get('receipts.csv') as string;
    expect(receiptsCsv.startsWith('\uFEFFreceipt_id,date,time,merchant_id,merchant,')).toBe(true);
    expect(receiptsCsv).toContain(',"Delhaize, ""Ixelles""",');
    expect(receiptsCsv).toContain(',EUR,7.50,0.12,');
    expect(receiptsCsv.split('\r\n')).toHaveLength(4);
    expect((files.get('items.csv') as string).split('\r\n')[0]).toBe(
      '\uFEFFitem_id,receipt_id,description,brand,owning_corporation,product_type,product_identifier,quantity,unit_price,total_price,currency',
    );
    expect(files.get('merchants.csv')).toContain('LIDL Brussel');
    expect(files.get('taxes.csv')).toContain('VAT,21,0.12,EUR');

    // Images of receipts and of the failed and queued scans, and the analyses; the bytes as stored.
    const images = [...files.keys()].filter((p) => p.startsWith('images/')).sort();
    expect(images).toEqual([1, 2, 3, 4].map((n) => `images/171400000000${n}-receipt.jpg`));
    expect(files.get('images/1714000000001-receipt.jpg')).toEqual(
      world.blobs.objects.get('alice/1714000000001-receipt.jpg')!.bytes,
    );
    expect([...files.keys()].filter((p) => p.startsWith('analysis/')).sort()).toEqual([
      'analysis/1714000000001-receipt.jpg.analysis.json',
      'analysis/1714000000002-receipt.jpg.analysis.json',
    ]);

    // Nothing of Bob's.
    for (const [path, content] of files) {
      const text = typeof content === 'string' ? content : new TextDecoder().decode(content);
      expect(text, path).not.toMatch(/bob|Aldi/);
    }
  });

  it('leaves the images out when asked, and refuses another user', async () => {
    const { world } = await seeded();
    const files = await filesOf(
      (await downloadMyData(world.deps, alice, { userId: 'alice', images: false })).files,
    );
    expect([...files.keys()].some((p) => p.startsWith('images/') || p.startsWith('analysis/'))).toBe(false);
    expect(files.has('receipts.csv')).toBe(true);
    await expect(downloadMyData(world.deps, bob, { userId: 'alice', images: true })).rejects.toThrow(
      ForbiddenError,
    );
    expect(downloadMyDataQuery.parse({ userId: 'alice' }).images).toBe(true);
    expect(downloadMyDataQuery.safeParse({ userId: 'alice', images: 'no' }).success).toBe(false);
  });
});

describe('deleteAccount', () => {
  it('removes every row and blob of the user and the sign-in account, and leaves other users alone', async () => {
    const { world, deps, accounts } = await seeded();
    const bobRowsBefore = await rowsMentioning(world, 'bob');
    const bobBlobsBefore = blobsOf(world, 'bob');
    expect(await rowsMentioning(world, 'alice')).not.toEqual([]);
    expect(blobsOf(world, 'alice')).toContain('cache/alice/app-data.json');
    // A data download left in storage for its link (cloud).
    const exported = exportKey('alice', new Date('2026-01-02T03:04:05Z'));
    await world.blobs.put(exported, new Uint8Array([80, 75, 5, 6]), 'application/zip');
    const bobExport = exportKey('bob', new Date('2026-01-02T03:04:05Z'));
    await world.blobs.put(bobExport, new Uint8Array([80, 75, 5, 6]), 'application/zip');

    await expect(deleteAccount(deps, bob, { userId: 'alice' })).rejects.toThrow(ForbiddenError);
    const answer = await deleteAccount(deps, alice, { userId: 'alice' });
    expect(answer.deleted).toBe(true);
    expect(answer.removed.blobs).toBe(8); // 4 images, 2 analyses, the report cache, the data export
    expect(world.blobs.objects.has(exported)).toBe(false);
    expect(world.blobs.objects.has(bobExport)).toBe(true);
    await world.blobs.delete(bobExport);

    expect(await rowsMentioning(world, 'alice')).toEqual([]);
    expect(blobsOf(world, 'alice')).toEqual([]);
    expect(accounts.deleted).toEqual(['alice']);
    expect(await rowsMentioning(world, 'bob')).toEqual(bobRowsBefore);
    expect(blobsOf(world, 'bob')).toEqual(bobBlobsBefore);
    expect(await new ReceiptRepository(world.store).pushTokensOf('bob')).toEqual(['bob-phone']);

    // The scan that was still queued is dropped by the worker, which writes nothing back.
    expect(await world.drain()).toEqual([expect.objectContaining({ outcome: 'skipped' })]);
    expect(await rowsMentioning(world, 'alice')).toEqual([]);
    expect(blobsOf(world, 'alice')).toEqual([]);
  });

  it('answers 409 and deletes nothing while a scan is being analysed', async () => {
    const { world, deps, accounts } = await seeded();
    const repo = new ReceiptRepository(world.store);
    const queued = (await repo.getQueueEntry('alice', '1714000000004-receipt.jpg'))!;
    await repo.saveQueueEntry(
      { ...queued.entry, status: 'Analyzing', updated_at: world.deps.now().toISOString() },
      queued.etag,
    );
    const before = await rowsMentioning(world, 'alice');
    await expect(deleteAccount(deps, alice, { userId: 'alice' })).rejects.toThrow(ConflictError);
    expect(await rowsMentioning(world, 'alice')).toEqual(before);
    expect(accounts.deleted).toEqual([]);
  });

  it('finishes the job when run again after failing halfway', async () => {
    const { world, deps, accounts } = await seeded();
    // The blob store fails after two deletes, then the identity provider once.
    const realDelete = world.blobs.delete.bind(world.blobs);
    let deletes = 0;
    world.blobs.delete = async (key: string) => {
      if (++deletes === 3) throw new Error('blob store unavailable');
      return realDelete(key);
    };
    await expect(deleteAccount(deps, alice, { userId: 'alice' })).rejects.toThrow('blob store unavailable');
    expect(await rowsMentioning(world, 'alice')).not.toEqual([]);

    accounts.failures.push(new ServiceUnavailableError('Firebase is down.'));
    await expect(deleteAccount(deps, alice, { userId: 'alice' })).rejects.toThrow(ServiceUnavailableError);
    // Everything but the sign-in account and the user's row, marked as being deleted, is gone
    // already; the mark refuses the user's writes meanwhile.
    expect(await rowsMentioning(world, 'alice')).toEqual(['Users: alice / alice']);
    expect(await world.store.getEntity(TABLES.users, 'alice', 'alice')).toHaveProperty([
      'account_deleted_at',
    ]);
    await expect(new ReceiptRepository(world.store).registerFcmToken('alice', 'late-phone')).rejects.toThrow(
      AccountDeletedError,
    );
    expect(accounts.deleted).toEqual([]);

    await deleteAccount(deps, alice, { userId: 'alice' });
    expect(accounts.deleted).toEqual(['alice']);
    expect(await rowsMentioning(world, 'alice')).toEqual([]);
    expect(blobsOf(world, 'alice')).toEqual([]);
  });

  it('keeps a push token that another user registered since', async () => {
    const { world, deps } = await seeded();
    await registerFcmToken(world.deps, bob, { userId: 'bob', fcmToken: 'alice-phone' });
    await deleteAccount(deps, alice, { userId: 'alice' });
    expect((await new ReceiptRepository(world.store).pushTokensOf('bob')).sort()).toEqual([
      'alice-phone',
      'bob-phone',
    ]);
  });

  it('accepts only the typed word DELETE as confirmation, with a message that says what to type', () => {
    expect(deleteAccountBody.safeParse({ userId: 'alice', confirmation: 'DELETE' }).success).toBe(true);
    expect(deleteAccountBody.safeParse({ userId: 'alice', confirmation: ' DELETE ' }).success).toBe(true);
    for (const confirmation of ['delete', 'yes', '']) {
      const parsed = deleteAccountBody.safeParse({ userId: 'alice', confirmation });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/type DELETE \(in capital letters\)/);
    }
    expect(deleteAccountBody.safeParse({ userId: 'alice' }).success).toBe(false);
  });
});
