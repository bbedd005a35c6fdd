import {
  repositories,
  TABLES,
  appDataAt,
  invalidateReportTotals,
  itemIdFor,
  itemToRow,
  listAllEntities,
  merchantRowsFromTotals,
  receiptIdFor,
  silentLogger,
  createReportCache,
  recordReceiptWrites,
  reportTotalsReady,
  updateReceiptTotals,
  type ItemRow,
  type TableStore,
} from '@receipts/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryBlobStore } from '../../packages/core/test/support/fakes';
import {
  appDataFromAllRows,
  heldUntilAllRead,
  incrementalTotals,
  pendingChanges,
  recomputedTotals,
  runRandomWrites,
  twinReceipts,
} from '../../packages/core/test/support/totals-scenario';
import { generatedReceipts, seedReceipts } from '../support/report-seed';
import { STORE_BACKENDS } from '../support/store-backends';

/**
 * The incremental report totals on both real table stores (Azurite and dynalite): after a seeded
 * random sequence of scans, edits, moves, merges and deletes they agree with a full recomputation
 * (and the report data, patched after each write, with a build from all rows),
 * and receipts applied at once by several writers (etag retries on shared rows) all count once.
 */
const backends = STORE_BACKENDS;

for (const backend of backends) {
  describe(`report totals on ${backend.name}`, () => {
    let store: TableStore;
    let stop: () => Promise<void>;
    beforeAll(async () => {
      ({ store, stop } = await backend.start());
    });
    afterAll(async () => {
      await stop();
    });

    it('agree with a full recomputation along a random sequence of writes (seed 4242)', async () => {
      const env = { store, blobs: new MemoryBlobStore() };
      const deps = { ...env, logger: silentLogger, reportCache: createReportCache() };
      const counts = await runRandomWrites(env, 'randomUser', 4242, 45, async (step, op) => {
        // The report data this process holds, patched with each write, is what all rows give.
        const state = await repositories(store).users.getDataState('randomUser');
        expect(await appDataAt(deps, 'randomUser', state), `step ${step} (${op})`).toEqual(
          await appDataFromAllRows(store, 'randomUser'),
        );
        if (step % 9 !== 8) return;
        expect(await incrementalTotals(store, 'randomUser'), `seed 4242, step ${step} (${op})`).toEqual(
          await recomputedTotals(store, 'randomUser'),
        );
      });
      for (const op of ['scan', 'edit receipt', 'delete', 'move']) expect(counts[op], op).toBeGreaterThan(0);
      expect(await incrementalTotals(store, 'randomUser')).toEqual(
        await recomputedTotals(store, 'randomUser'),
      );
      expect(await pendingChanges(store, 'randomUser')).toEqual([]);
    });

    it('count every receipt once when several writers apply theirs at the same time', async () => {
      await recordReceiptWrites(store, 'busyUser', []); // ready, and empty
      expect(await reportTotalsReady(store, 'busyUser')).toBe(true);
      const receipts = generatedReceipts('busy', 16, 4);
      await seedReceipts(store, 'busyUser', receipts, 8);
      // Every receipt shares the month, brand and corporation rows with others.
      await Promise.all(receipts.map((r) => updateReceiptTotals(store, 'busyUser', r.fileName)));
      expect(await incrementalTotals(store, 'busyUser')).toEqual(await recomputedTotals(store, 'busyUser'));
      expect(await pendingChanges(store, 'busyUser')).toEqual([]);
    });

    it('count two new receipts of the same merchant and brands recorded at once, each having read the shared rows before the other wrote', async () => {
      await recordReceiptWrites(store, 'twinUser', []); // ready, and empty
      const twins = twinReceipts('st');
      await seedReceipts(store, 'twinUser', twins);
      const held = heldUntilAllRead(store, twins.length);
      await Promise.all(twins.map((r) => recordReceiptWrites(held.store, 'twinUser', [r.fileName])));
      // The loser of each shared partition's transaction (or single write) read again and retried.
      expect(held.races()).toBeGreaterThan(0);
      const totals = await incrementalTotals(store, 'twinUser');
      expect(totals).toEqual(await recomputedTotals(store, 'twinUser'));
      expect(totals.brands.map((b) => [b.name, b.purchases, b.totals_by_currency])).toEqual([
        ['Heinz', 2, { EUR: 6.75 }],
        ['Nescafé', 2, { EUR: 13.5 }],
      ]);
      expect(totals.corporations.map((c) => [c.name, c.purchases])).toEqual([
        ['Kraft Heinz', 2],
        ['Nestlé', 2],
      ]);
      expect(totals.merchants.map((m) => m.visits)).toEqual([2]);
      expect(await pendingChanges(store, 'twinUser')).toEqual([]);
    });

    it("read the items a writer names by key, and list the receipt's items when those are not all of them", async () => {
      const user = 'keyedUser';
      await recordReceiptWrites(store, user, []); // ready, and empty
      const [receipt] = generatedReceipts('keyed', 1, 3);
      await seedReceipts(store, user, [receipt!]);
      const fileName = receipt!.fileName;
      const receiptId = receiptIdFor(user, fileName);
      const repos = repositories(store);
      const ids = [0, 1, 2].map((i) => itemIdFor(receiptId, i));
      // The keys are right: the items are read by key, without listing the receipt's partition.
      const listed: string[] = [];
      const spied = new Proxy(store, {
        get(target, property, receiver) {
          const value: unknown = Reflect.get(target, property, receiver);
          if (property !== 'listEntities' || typeof value !== 'function') return value;
          return (table: string, ...rest: unknown[]) => {
            listed.push(table);
            return (value as (...a: unknown[]) => unknown).apply(target, [table, ...rest]);
          };
        },
      });
      await recordReceiptWrites(spied, user, [fileName], new Date(), new Map([[fileName, ids]]));
      expect(listed).not.toContain(TABLES.items);
      expect(await incrementalTotals(store, user)).toEqual(await recomputedTotals(store, user));
      expect((await incrementalTotals(store, user)).summary.items).toBe(3);

      // Another writer added an item since (and counted it on the receipt row): a writer that
      // names the three it knew has its update read the receipt's items as they are.
      const [first] = await repos.receipts.listItemsOfReceipt(receiptId);
      const added: ItemRow = {
        ...first!,
        item_id: itemIdFor(receiptId, 7),
        description: 'KELLOGGS CORN FLAKES',
        total_price: 4.5,
        unit_price: 4.5,
        brand: "Kellogg's",
        owning_corporation: 'WK Kellogg Co',
      };
      await store.upsertEntity(TABLES.items, itemToRow(added), 'Replace');
      const row = (await repos.receipts.getReceipt(user, receiptId))!;
      await repos.receipts.saveReceipt({
        ...row,
        item_count: 4,
        total_amount: (row.total_amount ?? 0) + 4.5,
      });
      await recordReceiptWrites(store, user, [fileName], new Date(), new Map([[fileName, ids]]));
      let totals = await incrementalTotals(store, user);
      expect(totals).toEqual(await recomputedTotals(store, user));
      expect(totals.summary.items).toBe(4);
      expect(totals.brands.map((b) => b.name)).toContain("Kellogg's");

      // One item named is gone and another took its place (the count is the same): listed again.
      await store.deleteEntity(TABLES.items, receiptId, ids[0]!);
      await store.upsertEntity(
        TABLES.items,
        itemToRow({ ...added, item_id: itemIdFor(receiptId, 8), total_price: 2, unit_price: 2 }),
        'Replace',
      );
      await recordReceiptWrites(
        store,
        user,
        [fileName],
        new Date(),
        new Map([[fileName, [...ids, itemIdFor(receiptId, 7)]]]),
      );
      totals = await incrementalTotals(store, user);
      expect(totals).toEqual(await recomputedTotals(store, user));
      expect(totals.brands.find((b) => b.name === "Kellogg's")?.purchases).toBe(2);
      expect(await pendingChanges(store, user)).toEqual([]);
    });

    it('rebuild totals kept in the first layout (one contribution partition per user) at the next write', async () => {
      const user = 'layoutUser';
      const receipts = generatedReceipts('layout', 12, 2);
      await seedReceipts(store, user, receipts);
      expect(await recordReceiptWrites(store, user, [])).toBe('rebuilt');
      const applied = await listAllEntities(store, TABLES.totalsApplied, {
        partitionKeyPrefix: `${user}~applied~`,
      });
      expect(new Set(applied.map((r) => r.partitionKey)).size).toBeGreaterThan(1);
      // As the first layout left them: every contribution row in Totals' `<user>~applied`, and a
      // `ready` row without a layout; layout 2 left a sharded contribution row behind in Totals.
      await store.deleteEntity(TABLES.totalsApplied, `${user}~markers`, 'ready~3');
      for (const [i, { etag: _etag, ...row }] of applied.entries()) {
        const partitionKey = i === 0 ? row.partitionKey : `${user}~applied`;
        await store.upsertEntity(TABLES.totals, { ...row, partitionKey }, 'Replace');
        await store.deleteEntity(TABLES.totalsApplied, row.partitionKey, row.rowKey);
      }
      await store.upsertEntity(
        TABLES.totals,
        {
          partitionKey: `${user}~summary`,
          rowKey: 'ready',
          built_at: new Date().toISOString(),
          receipts: 12,
        },
        'Replace',
      );
      // Totals of another layout are not this code's: the report index serves until the next write.
      expect(await reportTotalsReady(store, user)).toBe(false);

      const [edited] = receipts;
      const repos = repositories(store);
      const row = (await repos.receipts.getReceipt(user, receiptIdFor(user, edited!.fileName)))!;
      await repos.receipts.saveReceipt({ ...row, total_amount: (row.total_amount ?? 0) + 10 });
      expect(await recordReceiptWrites(store, user, [edited!.fileName])).toBe('rebuilt');
      expect(await listAllEntities(store, TABLES.totals, { partitionKeyPrefix: `${user}~applied` })).toEqual(
        [],
      );
      expect(await store.getEntity(TABLES.totals, `${user}~summary`, 'ready')).toBeNull();
      expect(
        await listAllEntities(store, TABLES.totalsApplied, { partitionKeyPrefix: `${user}~applied~` }),
      ).toHaveLength(12);
      expect(await incrementalTotals(store, user)).toEqual(await recomputedTotals(store, user));
      // And the next write is an update again.
      await repos.receipts.saveReceipt({ ...row, total_amount: (row.total_amount ?? 0) + 20 });
      expect(await recordReceiptWrites(store, user, [edited!.fileName])).toBe('updated');
      expect(await incrementalTotals(store, user)).toEqual(await recomputedTotals(store, user));
    });

    it("rebuild a user's layout-2 totals (all in Totals) into the two tables at the next write, leaving nothing of layout 2", async () => {
      const user = 'layoutTwoUser';
      const receipts = generatedReceipts('two', 14, 2);
      await seedReceipts(store, user, receipts);
      expect(await recordReceiptWrites(store, user, [])).toBe('rebuilt');
      // As layout 2 keeps them: the contribution rows in Totals (same partitions), the markers in
      // Totals' `<user>~summary`, no layout rows; a build's lease and a note left over too.
      const applied = await listAllEntities(store, TABLES.totalsApplied, {
        partitionKeyPrefix: `${user}~applied~`,
      });
      expect(applied).toHaveLength(14);
      for (const { etag: _etag, ...row } of applied) {
        await store.upsertEntity(TABLES.totals, row, 'Replace');
        await store.deleteEntity(TABLES.totalsApplied, row.partitionKey, row.rowKey);
      }
      await store.deleteEntity(TABLES.totalsApplied, `${user}~markers`, 'ready~3');
      for (const kind of ['merchants', 'brands', 'corporations', 'months', 'summary']) {
        await store.deleteEntity(TABLES.totals, `${user}~${kind}`, '~layout~3');
      }
      const summary = `${user}~summary`;
      await store.upsertEntity(TABLES.totals, { partitionKey: summary, rowKey: 'ready~2', layout: 2 });
      await store.upsertEntity(TABLES.totals, {
        partitionKey: summary,
        rowKey: 'building',
        started_at: '2020-01-01T00:00:00Z',
      });
      await store.upsertEntity(TABLES.totals, {
        partitionKey: summary,
        rowKey: `dirty~${receipts[3]!.fileName}`,
      });
      expect(await reportTotalsReady(store, user)).toBe(false);

      const repos = repositories(store);
      const row = (await repos.receipts.getReceipt(user, receiptIdFor(user, receipts[0]!.fileName)))!;
      await repos.receipts.saveReceipt({ ...row, total_amount: (row.total_amount ?? 0) + 7 });
      expect(await recordReceiptWrites(store, user, [receipts[0]!.fileName])).toBe('rebuilt');
      // Nothing of layout 2 is left in Totals: only aggregate rows (and this layout's rows).
      expect(await listAllEntities(store, TABLES.totals, { partitionKeyPrefix: `${user}~applied` })).toEqual(
        [],
      );
      const summaryRows = await listAllEntities(store, TABLES.totals, { partitionKey: summary });
      expect(summaryRows.map((r) => r.rowKey).sort()).toEqual(['items', 'receipts', '~layout~3']);
      // The bookkeeping is in TotalsApplied.
      expect(
        await listAllEntities(store, TABLES.totalsApplied, { partitionKeyPrefix: `${user}~applied~` }),
      ).toHaveLength(14);
      const markers = await listAllEntities(store, TABLES.totalsApplied, { partitionKey: `${user}~markers` });
      expect(markers.map((r) => r.rowKey)).toEqual(['ready~3']);
      expect(await reportTotalsReady(store, user)).toBe(true);
      expect(await incrementalTotals(store, user)).toEqual(await recomputedTotals(store, user));
      await repos.receipts.saveReceipt({ ...row, total_amount: (row.total_amount ?? 0) + 9 });
      expect(await recordReceiptWrites(store, user, [receipts[0]!.fileName])).toBe('updated');
      expect(await incrementalTotals(store, user)).toEqual(await recomputedTotals(store, user));
    });

    it('do not take aggregates that code of layout 2 rebuilt meanwhile for their own', async () => {
      const user = 'besideUser';
      const receipts = generatedReceipts('beside', 6, 2);
      await seedReceipts(store, user, receipts);
      expect(await recordReceiptWrites(store, user, [])).toBe('rebuilt');
      // Layout 2's build, run by the other version during a deploy: it lists its partitions in Totals
      // and deletes them whole, then writes its aggregate and contribution rows and `ready~2` there.
      for (const kind of ['merchants', 'brands', 'corporations', 'months', 'summary']) {
        for (const { etag: _etag, ...row } of await listAllEntities(store, TABLES.totals, {
          partitionKey: `${user}~${kind}`,
        })) {
          await store.deleteEntity(TABLES.totals, row.partitionKey, row.rowKey);
          if (row.rowKey !== '~layout~3') await store.upsertEntity(TABLES.totals, row, 'Replace');
        }
      }
      await store.upsertEntity(TABLES.totals, {
        partitionKey: `${user}~summary`,
        rowKey: 'ready~2',
        layout: 2,
      });
      // This layout's marker is still there, but the pages do not serve those rows…
      expect(await reportTotalsReady(store, user)).toBe(true);
      expect(await merchantRowsFromTotals(store, user)).toBeNull();
      // …and the next write builds this layout's totals again, removing layout 2's marker.
      const repos = repositories(store);
      const row = (await repos.receipts.getReceipt(user, receiptIdFor(user, receipts[1]!.fileName)))!;
      await repos.receipts.saveReceipt({ ...row, total_amount: (row.total_amount ?? 0) + 3 });
      expect(await recordReceiptWrites(store, user, [receipts[1]!.fileName])).toBe('rebuilt');
      expect(await store.getEntity(TABLES.totals, `${user}~summary`, 'ready~2')).toBeNull();
      expect(await incrementalTotals(store, user)).toEqual(await recomputedTotals(store, user));
      expect(await pendingChanges(store, user)).toEqual([]);
    });

    it('mark totals ready with a row of their layout, which code of an earlier layout does not read as its own', async () => {
      const user = 'markerUser';
      await seedReceipts(store, user, generatedReceipts('marker', 3, 2));
      expect(await recordReceiptWrites(store, user, [])).toBe('rebuilt');
      expect(await store.getEntity(TABLES.totalsApplied, `${user}~markers`, 'ready~3')).not.toBeNull();
      // The rows earlier versions look for are absent: their writers build their own totals rather
      // than apply a receipt to these, and their report routes use the report index.
      expect(await store.getEntity(TABLES.totals, `${user}~summary`, 'ready')).toBeNull();
      expect(await store.getEntity(TABLES.totals, `${user}~summary`, 'ready~2')).toBeNull();
      // Earlier versions' markers left from before are removed with this one's when totals are
      // marked untrustworthy.
      await store.upsertEntity(TABLES.totals, { partitionKey: `${user}~summary`, rowKey: 'ready' });
      await store.upsertEntity(TABLES.totals, { partitionKey: `${user}~summary`, rowKey: 'ready~2' });
      await invalidateReportTotals(store, user);
      expect(await store.getEntity(TABLES.totals, `${user}~summary`, 'ready')).toBeNull();
      expect(await store.getEntity(TABLES.totals, `${user}~summary`, 'ready~2')).toBeNull();
      expect(await store.getEntity(TABLES.totalsApplied, `${user}~markers`, 'ready~3')).toBeNull();
      expect(await reportTotalsReady(store, user)).toBe(false);
    });

    it("build a user's totals from rows written before them, without another user's rows", async () => {
      await seedReceipts(store, 'oldUser', generatedReceipts('old', 40, 3));
      await seedReceipts(store, 'neighbour', generatedReceipts('nb', 10, 3));
      expect(await recordReceiptWrites(store, 'oldUser', ['1700000000000-receipt.jpg'])).toBe('rebuilt');
      const totals = await incrementalTotals(store, 'oldUser');
      expect(totals).toEqual(await recomputedTotals(store, 'oldUser'));
      expect(totals.summary.receipts).toBe(40);
      expect(totals.merchants.every((m) => m.name.endsWith('of old'))).toBe(true);
    });
  });
}
