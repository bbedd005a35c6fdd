import { describe, expect, it } from 'vitest';
import {
  TABLES,
  repositories,
  afterReceiptWrites,
  invalidateReportTotals,
  queryReport,
  queryReportIndex,
  recordReceiptWrites,
  reportIndexOf,
  reportTotalsReady,
  silentLogger,
  markersPartition,
  updateReceiptTotals,
  type ListOptions,
  type TableEntity,
  type TableStore,
  type TransactionAction,
  type WriteOptions,
  type UpdateMode,
} from '../src';
import { reportQuery } from '../src/contract/reports';
import { identity } from './support/fakes';
import { MemoryTableStore } from './support/memory-table-store';
import {
  heldUntilAllRead,
  incrementalTotals,
  pendingChanges,
  recomputedTotals,
  runRandomWrites,
  twinReceipts,
} from './support/totals-scenario';
import { createWorld } from './support/world';
import { generatedReceipts, seedReceipts } from '../../../test/support/report-seed';

const alice = identity('alice');

describe('incremental report totals against a full recomputation', () => {
  for (const seed of [11, 2024, 77]) {
    it(`agree after every write of a random sequence (seed ${seed})`, { timeout: 30_000 }, async () => {
      const world = await createWorld();
      const counts = await runRandomWrites(world, 'alice', seed, 70, async (step, op) => {
        const expected = await recomputedTotals(world.store, 'alice');
        const actual = await incrementalTotals(world.store, 'alice');
        expect(actual, `seed ${seed}, step ${step} (${op})`).toEqual(expected);
      });
      // The sequence exercised every kind of write.
      for (const op of ['scan', 'edit receipt', 'add item', 'delete item', 'move', 'merge', 'delete']) {
        expect(counts[op], `seed ${seed}: ${op}`).toBeGreaterThan(0);
      }
      expect(await reportTotalsReady(world.store, 'alice')).toBe(true);
      expect(await pendingChanges(world.store, 'alice')).toEqual([]);
    });
  }
});

/** A store that counts calls, and fails writes to aggregate rows while `failAggregates` is set. */
class InstrumentedStore extends MemoryTableStore {
  ops = 0;
  failAggregates = false;
  /** The aggregate rows are the Totals table's (the contribution rows are in TotalsApplied). */
  private check(table: string): void {
    if (this.failAggregates && table === TABLES.totals) {
      throw new Error('the store is unavailable');
    }
  }
  override async getEntity<T extends TableEntity = TableEntity>(table: string, pk: string, rk: string) {
    this.ops++;
    return super.getEntity<T>(table, pk, rk);
  }
  override async getEntities<T extends TableEntity = TableEntity>(
    ...args: Parameters<MemoryTableStore['getEntities']>
  ) {
    this.ops++;
    return super.getEntities<T>(...args);
  }
  override async submitTransaction(table: string, actions: TransactionAction[]) {
    this.ops++;
    this.check(table);
    return super.submitTransaction(table, actions);
  }
  override async listEntities<T extends TableEntity = TableEntity>(
    ...args: Parameters<MemoryTableStore['listEntities']>
  ) {
    this.ops++;
    return super.listEntities<T>(...args);
  }
  override async createEntity(table: string, entity: TableEntity) {
    this.ops++;
    this.check(table);
    return super.createEntity(table, entity);
  }
  override async updateEntity(table: string, entity: TableEntity, mode?: UpdateMode, options?: WriteOptions) {
    this.ops++;
    this.check(table);
    return super.updateEntity(table, entity, mode, options);
  }
}

async function worldOn(store: TableStore) {
  const world = await createWorld();
  for (const table of Object.values(TABLES)) await store.createTable(table);
  return { ...world, store, deps: { ...world.deps, store } };
}

describe('updateReceiptTotals', () => {
  it('costs the same number of store calls for a user with 5 receipts and with 200', async () => {
    const callsFor = async (size: number) => {
      const store = new InstrumentedStore();
      await worldOn(store);
      const receipts = generatedReceipts('u', size, 4);
      await seedReceipts(store, 'user1', receipts);
      await recordReceiptWrites(store, 'user1', [receipts[0]!.fileName]); // the first build
      // A new receipt like the others, written as the worker does, then its totals applied.
      const added = generatedReceipts('v', size + 1, 4).at(-1)!;
      await seedReceipts(store, 'user1', [added]);
      store.ops = 0;
      await updateReceiptTotals(store, 'user1', added.fileName);
      return store.ops;
    };
    const small = await callsFor(5);
    const large = await callsFor(200);
    expect(small).toBeGreaterThan(0);
    expect(large).toBe(small);
    // Its contribution row, receipt and items (3 reads), the change recorded and the aggregate rows
    // read (2), one write per partition of aggregate rows (at most 5: merchants, months, summary,
    // brands, corporations) and the change cleared (1), however many brands its items name.
    expect(large).toBeLessThanOrEqual(11);
  });

  it('applies a receipt naming more brands than one transaction takes (120 brands of 120 corporations)', async () => {
    const store = new MemoryTableStore();
    for (const table of Object.values(TABLES)) await store.createTable(table);
    await recordReceiptWrites(store, 'hal', []); // totals ready, still empty
    const items = Array.from({ length: 120 }, (_, i) => ({
      description: `Line ${i}`,
      price: 1 + i / 100,
      brand: `Brand ${i}`,
      owner: `Owner ${i}`,
    }));
    const big = { fileName: '1720000000000-long.jpg', merchant: 'Wholesale', date: '2024-07-01', items };
    await seedReceipts(store, 'hal', [big]);
    // Its merchant, month and the two summary rows, and a row per brand and per corporation.
    expect(await updateReceiptTotals(store, 'hal', big.fileName)).toBe(4 + 240);
    const totals = await incrementalTotals(store, 'hal');
    expect(totals).toEqual(await recomputedTotals(store, 'hal'));
    expect(totals.brands).toHaveLength(120);
    expect(totals.corporations).toHaveLength(120);
  });

  it('is idempotent: applying the same receipt again changes nothing', async () => {
    const world = await createWorld();
    await runRandomWrites(world, 'alice', 5, 12);
    const before = await incrementalTotals(world.store, 'alice');
    for (const receipt of await repositories(world.store).receipts.listReceipts('alice')) {
      expect(await updateReceiptTotals(world.store, 'alice', receipt.file_name)).toBe(0);
    }
    expect(await incrementalTotals(world.store, 'alice')).toEqual(before);
  });

  it('finishes a change interrupted half-way at the next update of that receipt, applying it once', async () => {
    const store = new InstrumentedStore();
    const world = await worldOn(store);
    await runRandomWrites(world, 'alice', 9, 10);
    const [receipt] = await repositories(store).receipts.listReceipts('alice');
    // Change the receipt's row behind the totals' back, then fail the update after it recorded
    // its change as pending.
    await repositories(store).receipts.saveReceipt({ ...receipt!, total_amount: 999.99 });
    store.failAggregates = true;
    await expect(updateReceiptTotals(store, 'alice', receipt!.file_name)).rejects.toThrow('unavailable');
    expect(await pendingChanges(store, 'alice')).toEqual([receipt!.file_name]);
    store.failAggregates = false;
    await updateReceiptTotals(store, 'alice', receipt!.file_name);
    expect(await pendingChanges(store, 'alice')).toEqual([]);
    expect(await incrementalTotals(store, 'alice')).toEqual(await recomputedTotals(store, 'alice'));
  });

  it('keeps every receipt when many are applied at once (etag retries on shared rows)', async () => {
    const store = new MemoryTableStore();
    for (const table of Object.values(TABLES)) await store.createTable(table);
    await recordReceiptWrites(store, 'bob', []); // totals ready, still empty
    const receipts = generatedReceipts('c', 24, 5);
    await seedReceipts(store, 'bob', receipts, 8);
    await Promise.all(receipts.map((r) => updateReceiptTotals(store, 'bob', r.fileName)));
    expect(await incrementalTotals(store, 'bob')).toEqual(await recomputedTotals(store, 'bob'));
  });
});

describe('two new receipts of the same merchant and brands recorded at once', () => {
  it('both count, though each read the shared rows before the other wrote (etag retries)', async () => {
    const store = new MemoryTableStore();
    for (const table of Object.values(TABLES)) await store.createTable(table);
    await recordReceiptWrites(store, 'gus', []); // totals ready, still empty
    const twins = twinReceipts('mem');
    await seedReceipts(store, 'gus', twins);
    const held = heldUntilAllRead(store, twins.length);
    await Promise.all(twins.map((r) => recordReceiptWrites(held.store, 'gus', [r.fileName])));
    expect(held.races()).toBeGreaterThan(0);
    const totals = await incrementalTotals(store, 'gus');
    expect(totals).toEqual(await recomputedTotals(store, 'gus'));
    expect(totals.brands.map((b) => [b.name, b.purchases, b.totals_by_currency])).toEqual([
      ['Heinz', 2, { EUR: 6.75 }],
      ['Nescafé', 2, { EUR: 13.5 }],
    ]);
    expect(totals.merchants.map((m) => m.visits)).toEqual([2]);
    expect(await pendingChanges(store, 'gus')).toEqual([]);
  });
});

describe('afterReceiptWrites', () => {
  it('builds the totals from all rows at the first write of a user whose data predates them', async () => {
    const store = new MemoryTableStore();
    for (const table of Object.values(TABLES)) await store.createTable(table);
    const receipts = generatedReceipts('old', 30, 3);
    await seedReceipts(store, 'carol', receipts);
    expect(await reportTotalsReady(store, 'carol')).toBe(false);
    await afterReceiptWrites({ store, logger: silentLogger }, 'carol', [receipts[0]!.fileName]);
    expect(await reportTotalsReady(store, 'carol')).toBe(true);
    expect(await incrementalTotals(store, 'carol')).toEqual(await recomputedTotals(store, 'carol'));
  });

  it('marks the totals for a rebuild when an update fails, and the next write rebuilds them right', async () => {
    const store = new InstrumentedStore();
    const world = await worldOn(store);
    await runRandomWrites(world, 'alice', 3, 10);
    const [receipt] = await repositories(store).receipts.listReceipts('alice');
    await repositories(store).receipts.saveReceipt({ ...receipt!, total_amount: 123.45 });
    store.failAggregates = true;
    await afterReceiptWrites({ store, logger: silentLogger }, 'alice', [receipt!.file_name]);
    expect(await reportTotalsReady(store, 'alice')).toBe(false);
    store.failAggregates = false;
    await afterReceiptWrites({ store, logger: silentLogger }, 'alice', [receipt!.file_name]);
    expect(await reportTotalsReady(store, 'alice')).toBe(true);
    expect(await incrementalTotals(store, 'alice')).toEqual(await recomputedTotals(store, 'alice'));
  });

  it('gives the build lease back when a build fails, so the next write builds at once', async () => {
    const store = new MemoryTableStore();
    for (const table of Object.values(TABLES)) await store.createTable(table);
    const receipts = generatedReceipts('f', 8, 2);
    await seedReceipts(store, 'erin', receipts);
    store.failNext = { method: 'submitTransaction', error: new Error('the store is unavailable'), times: 1 };
    await afterReceiptWrites({ store, logger: silentLogger }, 'erin', [receipts[0]!.fileName]);
    expect(await reportTotalsReady(store, 'erin')).toBe(false);
    expect(await store.getEntity(TABLES.totalsApplied, markersPartition('erin'), 'building')).toBeNull();
    expect(await recordReceiptWrites(store, 'erin', [receipts[1]!.fileName])).toBe('rebuilt');
    expect(await incrementalTotals(store, 'erin')).toEqual(await recomputedTotals(store, 'erin'));
  });

  it('leaves a note while another writer builds the totals; the build applies it', async () => {
    const store = new MemoryTableStore();
    for (const table of Object.values(TABLES)) await store.createTable(table);
    const receipts = generatedReceipts('n', 6, 2);
    await seedReceipts(store, 'dan', receipts.slice(0, 5));
    // Another writer holds the build.
    const markers = markersPartition('dan');
    await store.createEntity(TABLES.totalsApplied, {
      partitionKey: markers,
      rowKey: 'building',
      started_at: new Date().toISOString(),
    });
    await seedReceipts(store, 'dan', receipts.slice(5));
    expect(await recordReceiptWrites(store, 'dan', [receipts[5]!.fileName])).toBe('noted');
    expect(
      await store.getEntity(TABLES.totalsApplied, markers, `dirty~${receipts[5]!.fileName}`),
    ).not.toBeNull();
    // That build was abandoned: a write after the lease takes it over and rebuilds everything.
    const later = new Date(Date.now() + 10 * 60_000);
    expect(await recordReceiptWrites(store, 'dan', [receipts[0]!.fileName], later)).toBe('rebuilt');
    expect(await incrementalTotals(store, 'dan')).toEqual(await recomputedTotals(store, 'dan'));
  });
});

describe('queryReport from the totals', () => {
  it('answers the merchants, brands and corporations pages as the report index does, without reading items', async () => {
    const world = await createWorld();
    await runRandomWrites(world, 'alice', 31, 40);
    world.deps.reportCache.clear();
    const read: string[] = [];
    const list = world.store.listEntities.bind(world.store);
    world.store.listEntities = ((table: string, options?: ListOptions) => {
      read.push(table);
      return list(table, options);
    }) as typeof world.store.listEntities;
    const queries: Record<string, string>[] = [
      { table: 'merchants' },
      { table: 'merchants', sort: 'visits', dir: 'desc', pageSize: '2' },
      { table: 'brands' },
      { table: 'brands', sort: 'name', pageSize: '3' },
      { table: 'corporations', sort: 'brands', dir: 'desc' },
    ];
    const fromTotals = [];
    for (const query of queries) {
      const parsed = reportQuery.parse({ userId: 'alice', ...query });
      const first = await queryReport(world.deps, alice, parsed);
      fromTotals.push(first);
      // The next page too, by its token.
      if (first.nextPageToken) {
        fromTotals.push(await queryReport(world.deps, alice, { ...parsed, pageToken: first.nextPageToken }));
      }
    }
    expect(read).not.toContain(TABLES.items);
    expect(read).not.toContain(TABLES.receipts);
    expect(fromTotals.some((page) => page.rows.length > 0)).toBe(true);

    const index = await reportIndexOf(world.deps, 'alice');
    const fromIndex = [];
    for (const query of queries) {
      const { userId: _userId, pageSize, ...rest } = reportQuery.parse({ userId: 'alice', ...query });
      const first = queryReportIndex(index, { ...rest, pageSize: pageSize ?? 25 });
      fromIndex.push(first);
      if (first.nextPageToken) {
        fromIndex.push(
          queryReportIndex(index, { ...rest, pageSize: pageSize ?? 25, pageToken: first.nextPageToken }),
        );
      }
    }
    expect(fromTotals).toEqual(fromIndex);

    // A search selects receipts and items, which only the report index holds: it answers.
    for (const query of [
      { table: 'merchants', q: 'brussels' },
      { table: 'brands', q: 'nestle' },
      { table: 'corporations', q: 'fanta' },
    ]) {
      const { userId: _userId, pageSize, ...rest } = reportQuery.parse({ userId: 'alice', ...query });
      expect(await queryReport(world.deps, alice, reportQuery.parse({ userId: 'alice', ...query }))).toEqual(
        queryReportIndex(index, { ...rest, pageSize: pageSize ?? 25 }),
      );
    }
  });

  it('uses the report index for a filter the totals cannot answer, and when they are not ready', async () => {
    const world = await createWorld();
    await runRandomWrites(world, 'alice', 8, 20);
    const ask = (query: Record<string, string>) =>
      queryReport(world.deps, alice, reportQuery.parse({ userId: 'alice', ...query }));
    const all = await ask({ table: 'merchants', pageSize: '100' });
    const early = await ask({ table: 'merchants', pageSize: '100', to: '2023-06-30' });
    const visits = (page: typeof all) => page.sums.visits ?? 0;
    expect(visits(early)).toBeLessThan(visits(all));
    expect(visits(early)).toBe(
      (await recomputedTotals(world.store, 'alice')).summary.months
        .filter((m) => m.month !== 'undated' && m.month <= '2023-06')
        .reduce((n, m) => n + m.receipts, 0),
    );
    // Totals marked as not ready (a failed update): the same answer, from the index.
    await invalidateReportTotals(world.store, 'alice');
    world.deps.reportCache.clear();
    expect(await ask({ table: 'merchants', pageSize: '100' })).toEqual(all);
  });
});
