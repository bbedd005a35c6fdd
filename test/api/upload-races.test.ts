import type { AppError } from '@receipts/core';
import {
  AccountDeletedError,
  REQUIRED_TABLES,
  repositories,
  TABLES,
  TooManyRequestsError,
  deleteAccount,
  listAllEntities,
  num,
  removeScan,
  silentLogger,
  createReportCache,
  uploadReceipt,
  type AppDeps,
  type TableStore,
} from '@receipts/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MemoryBlobStore,
  RecordingQueue,
  dataUrlOf,
  fakeReceiptImage,
  identity,
} from '../../packages/core/test/support/fakes';
import { STORE_BACKENDS } from '../support/store-backends';

const QUOTAS = {
  uploadsPerDay: 1000,
  pendingScans: 25,
  storedBytes: 1024 * 1024 * 1024,
  reanalysesPerDay: 10,
};

const image = (n: number) =>
  dataUrlOf(
    fakeReceiptImage({
      merchant: `Shop ${n}`,
      date: '2024-04-02',
      total: n,
      items: [{ description: 'BREAD', price: n }],
    }),
  );

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const settle = async <T>(work: Promise<T>): Promise<{ ok: T } | { error: unknown }> =>
  work.then(
    (ok) => ({ ok }),
    (error: unknown) => ({ error }),
  );

/**
 * Uploads racing each other on both real table stores, through the upload use case as the
 * /api/upload handler calls it: the quotas kept on the user's row hold however many arrive at once.
 */
for (const backend of STORE_BACKENDS) {
  describe(`upload races on ${backend.name}`, () => {
    let store: TableStore;
    let stop: () => Promise<void>;
    let deps: AppDeps & { blobs: MemoryBlobStore };
    beforeAll(async () => {
      ({ store, stop } = await backend.start());
      deps = {
        store,
        blobs: new MemoryBlobStore(),
        queue: new RecordingQueue(),
        logger: silentLogger,
        reportCache: createReportCache(),
        quotas: QUOTAS,
      };
    });
    afterAll(async () => {
      await stop();
    });

    const storedBytes = async (uid: string) => {
      const row = await store.getEntity(TABLES.users, uid, uid);
      return row ? (num(row, 'stored_bytes') ?? 0) : 0;
    };

    it(
      'accepts at most 25 of 40 uploads sent at once against a pending limit of 25',
      { timeout: 120_000 },
      async () => {
        const uid = 'racer';
        const uploads = Array.from({ length: 40 }, (_, n) => ({
          fileName: `${1700000000000 + n}-r.jpg`,
          imgSrc: image(n + 1),
        }));
        const answers = await Promise.all(
          uploads.map((u) => settle(uploadReceipt(deps, identity(uid), { userId: uid, ...u }))),
        );
        const accepted = answers.filter((a) => 'ok' in a).length;
        const refused = answers.flatMap((a) => ('error' in a ? [a.error] : []));
        console.log(`${backend.name}: ${accepted} of 40 accepted, ${refused.length} refused`);
        expect(accepted).toBeGreaterThan(0);
        expect(accepted).toBeLessThanOrEqual(25);
        // Every refusal is a quota answer (429) a person can act on, never a store error.
        for (const error of refused) expect(error).toBeInstanceOf(TooManyRequestsError);
        expect(refused.map((e) => (e as AppError).code)).toContain('TooManyPendingScans');
        const queue = await repositories(store).scans.listQueue(uid);
        expect(queue.filter((e) => e.status !== 'Failed')).toHaveLength(accepted);
        // The stored bytes are those of the accepted uploads exactly: none lost, none counted twice.
        const kept = new Set(queue.map((e) => e.fileName));
        const expected = uploads
          .filter((u) => kept.has(u.fileName))
          .reduce((sum, u) => sum + (deps.blobs.objects.get(`${uid}/${u.fileName}`)?.bytes.length ?? NaN), 0);
        expect(await storedBytes(uid)).toBe(expected);
      },
    );

    it('gives back the bytes of a failed scan that is removed', async () => {
      const uid = 'remover';
      const fileName = '1700000000000-failed.jpg';
      await uploadReceipt(deps, identity(uid), { userId: uid, fileName, imgSrc: image(7) });
      const size = deps.blobs.objects.get(`${uid}/${fileName}`)!.bytes.length;
      expect(await storedBytes(uid)).toBe(size);
      const repos = repositories(store);
      const found = (await repos.scans.getQueueEntry(uid, fileName))!;
      await repos.scans.saveQueueEntry(
        { ...found.entry, status: 'Failed', reason: 'The image could not be read.' },
        found.etag,
      );
      await removeScan(deps, identity(uid), { userId: uid, fileName });
      expect(await storedBytes(uid)).toBe(0);
      expect(await deps.blobs.list(`${uid}/`)).toEqual([]);
    });

    it('leaves nothing of an account whose uploads arrive while it is being deleted', async () => {
      const uid = 'leaver';
      let signedOut = false;
      const accounts = { deleteAccount: async () => void (signedOut = true) };
      // As the handler sends them: after the token was verified, so none starts once the sign-in
      // account is gone.
      const uploads = Array.from({ length: 12 }, async (_, n) => {
        await pause(n * 60);
        if (signedOut) return 'signed out' as const;
        const fileName = `${1700000000100 + n}-late.jpg`;
        return settle(uploadReceipt(deps, identity(uid), { userId: uid, fileName, imgSrc: image(n + 2) }));
      });
      // The deletion starts once the first upload is in; the others arrive while it runs.
      const deletion = uploads[0]!.then(() =>
        deleteAccount({ ...deps, identity: accounts }, identity(uid), { userId: uid }),
      );
      const [answers, deleted] = await Promise.all([Promise.all(uploads), deletion]);
      expect(deleted.deleted).toBe(true);
      const accepted = answers.filter((a) => typeof a === 'object' && 'ok' in a);
      const refused = answers.flatMap((a) => (typeof a === 'object' && 'error' in a ? [a.error] : []));
      console.log(
        `${backend.name}: ${accepted.length} accepted before the mark, ${refused.length} refused, ${answers.length - accepted.length - refused.length} after sign-out`,
      );
      expect(accepted.length).toBeGreaterThan(0);
      expect(refused.length).toBeGreaterThan(0);
      // Refused with 410 and words a person understands, never a store error.
      for (const error of refused) expect(error).toBeInstanceOf(AccountDeletedError);

      const left: string[] = [];
      for (const table of REQUIRED_TABLES) {
        for (const row of await listAllEntities(store, table)) {
          if (JSON.stringify(row).includes(uid)) left.push(`${table}: ${row.partitionKey} / ${row.rowKey}`);
        }
      }
      expect(left).toEqual([]);
      expect([...deps.blobs.objects.keys()].filter((key) => key.includes(uid))).toEqual([]);
    });
  });
}
