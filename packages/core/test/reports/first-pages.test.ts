import { describe, expect, it } from 'vitest';
import {
  TABLES,
  buildReportIndex,
  reportPagesCacheKey,
  createReportCache,
  firstPagesOf,
  pageFromFirstPages,
  queryReport,
  scanReportIndex,
  silentLogger,
  type AppData,
  type FirstPages,
  type PageQuery,
} from '../../src';
import { reportQuery, type ReportTable } from '../../src/contract/reports';
import { ordersOf, type PagedTable } from '../../src/reports/first-pages';
import { MemoryBlobStore, identity } from '../support/fakes';
import { MemoryTableStore } from '../support/memory-table-store';
import { appDataFromAllRows, runRandomWrites } from '../support/totals-scenario';

/** A blob store that counts the reads and writes of each key, and refuses the writes it is told to. */
class CountingBlobStore extends MemoryBlobStore {
  readonly reads = new Map<string, number>();
  readonly writes = new Map<string, number>();
  refuse: (key: string) => boolean = () => false;
  override async get(key: string) {
    this.reads.set(key, (this.reads.get(key) ?? 0) + 1);
    return super.get(key);
  }
  override async put(key: string, bytes: Uint8Array, contentType: string) {
    this.writes.set(key, (this.writes.get(key) ?? 0) + 1);
    if (this.refuse(key)) throw new Error(`write of ${key} refused`);
    return super.put(key, bytes, contentType);
  }
  readsOf(part: string): number {
    return countOf(this.reads, part);
  }
  writesOf(part: string): number {
    return countOf(this.writes, part);
  }
}

function countOf(counts: Map<string, number>, part: string): number {
  let n = 0;
  for (const [key, count] of counts) if (key.includes(part)) n += count;
  return n;
}

async function newEnv() {
  const store = new MemoryTableStore();
  for (const table of Object.values(TABLES)) await store.createTable(table);
  return { store, blobs: new CountingBlobStore() };
}

const queryOf = (
  list: { table: PagedTable; review?: 'needed' },
  sort: string,
  dir: 'asc' | 'desc',
  pageSize: number,
  pageToken?: string,
) => ({ ...list, sort, dir, pageSize, ...(pageToken ? { pageToken } : {}) }) as PageQuery<ReportTable>;

/** The lists kept as first pages: the two tables, and the review list. */
const LISTS = [{ table: 'receipts' }, { table: 'items' }, { table: 'receipts', review: 'needed' }] as const;

/** The first and second page of every order of both tables, from the first pages and from a full pass. */
function expectSamePages(pages: FirstPages, data: AppData, label: string): number {
  const index = buildReportIndex(data);
  let answered = 0;
  for (const list of LISTS) {
    const { table } = list;
    for (const { sort, dir } of ordersOf(table)) {
      for (const pageSize of [1, 7, 25, 100]) {
        const first = queryOf(list, sort, dir, pageSize);
        const expected = scanReportIndex(index, first);
        const page = pageFromFirstPages(pages, first);
        expect(page, `${label}: ${JSON.stringify(list)} by ${sort} ${dir}, ${pageSize} rows`).toEqual(
          expected,
        );
        if (page) answered++;
        const second = queryOf(list, sort, dir, pageSize, expected.nextPageToken ?? undefined);
        const later = pageFromFirstPages(pages, second);
        // A later page is answered from the first pages only within the rows they keep.
        if (later) expect(later, `${label}: second page`).toEqual(scanReportIndex(index, second));
      }
    }
  }
  return answered;
}

describe('the first pages of the receipts and items tables', () => {
  it('give the same first page as the full build, at every sort and page size', async () => {
    const { store, blobs } = await newEnv();
    await runRandomWrites({ store, blobs }, 'ann', 5, 40);
    const data = await appDataFromAllRows(store, 'ann');
    const names = Object.fromEntries(data.reportReceipts.map((r) => [r.merchant_id, r.merchant_name]));
    // Stored as JSON and read back, as another process reads them.
    const stored = JSON.parse(
      JSON.stringify(firstPagesOf(buildReportIndex(data), names).pages),
    ) as FirstPages;
    expect(expectSamePages(stored, data, 'built')).toBeGreaterThan(0);
    // The review list is not empty here, nor the whole table.
    expect(stored.review.figures.count).toBeGreaterThan(0);
    expect(stored.review.figures.count).toBeLessThan(stored.receipts.figures.count);
  }, 30_000);

  it('leave a search, a filter or an unknown sort to the report index', async () => {
    const { store, blobs } = await newEnv();
    await runRandomWrites({ store, blobs }, 'ben', 9, 10);
    const data = await appDataFromAllRows(store, 'ben');
    const { pages } = firstPagesOf(buildReportIndex(data), {});
    const base = { table: 'receipts' as const, pageSize: 25 };
    expect(pageFromFirstPages(pages, { ...base, q: 'shop' })).toBeUndefined();
    expect(pageFromFirstPages(pages, { ...base, currency: 'EUR' })).toBeUndefined();
    expect(pageFromFirstPages(pages, { ...base, review: 'needed', currency: 'EUR' })).toBeUndefined();
    expect(pageFromFirstPages(pages, { ...base, sort: 'nonsense' })).toBeUndefined();
    expect(pageFromFirstPages(pages, { ...base, table: 'merchants' } as PageQuery)).toBeUndefined();
  });

  for (const { seed, torn } of [
    { seed: 11, torn: false },
    { seed: 47, torn: false },
    { seed: 23, torn: true },
  ]) {
    const how = torn ? ', though every third write of the first pages or a part of the shares fails' : '';
    it(`serve a process that holds nothing the right first page after every write, patched from a few parts of the shares${how} (seed ${seed})`, async () => {
      const { store, blobs } = await newEnv();
      const user = `cold${seed}`;
      if (torn) {
        let puts = 0;
        blobs.refuse = (key) => /report-(pages|shares)/.test(key) && ++puts % 3 === 0;
      }
      const ask = (cache: ReturnType<typeof createReportCache>, query: Record<string, string>) =>
        queryReport(
          { store, blobs, logger: silentLogger, reportCache: cache },
          identity(user),
          reportQuery.parse({ userId: user, pageSize: '25', ...query }),
        );
      // One process stays up (its first pages are patched in memory), one is asked every third write
      // only (its patch spans three writes); others start for each read.
      const warm = createReportCache();
      const lagging = createReportCache();
      let steps = 0;
      let withoutWholeReport = 0;
      let mostParts = 0;
      await runRandomWrites({ store, blobs }, user, seed, 30, async (step, op) => {
        const index = buildReportIndex(await appDataFromAllRows(store, user));
        const queries: Record<string, string>[] = [
          { table: 'receipts' },
          { table: 'items' },
          { table: 'receipts', sort: 'total', dir: 'desc' },
          // The header's count of receipts to review, and the review list.
          { table: 'receipts', review: 'needed', pageSize: '1' },
          { table: 'receipts', review: 'needed', sort: 'analyzed', dir: 'desc' },
        ];
        for (const query of queries) {
          const parsed = reportQuery.parse({ userId: user, pageSize: '25', ...query });
          const { userId: _userId, pageSize, ...rest } = parsed;
          const expected = scanReportIndex(index, { ...rest, pageSize: pageSize ?? 25 });
          const before = blobs.readsOf('app-data.json');
          const parts = { read: blobs.readsOf('report-shares'), written: blobs.writesOf('report-shares') };
          expect(await ask(createReportCache(), query), `step ${step} (${op}), cold`).toEqual(expected);
          steps++;
          if (blobs.readsOf('app-data.json') === before) {
            withoutWholeReport++;
            const read = blobs.readsOf('report-shares') - parts.read;
            const written = blobs.writesOf('report-shares') - parts.written;
            // A merge moves all of a merchant's receipts; any other write changes one or two.
            if (op !== 'merge') mostParts = Math.max(mostParts, read, written);
          }
          expect(await ask(warm, query), `step ${step} (${op}), warm`).toEqual(expected);
          if (step % 3 === 2) {
            expect(await ask(lagging, query), `step ${step} (${op}), three writes later`).toEqual(expected);
          }
        }
      });
      // Merges and moves name merchants whose other receipts change too: those read the whole report.
      expect(withoutWholeReport).toBeGreaterThan(steps / (torn ? 3 : 2));
      // A patch reads and writes the parts of the receipts it changes, not all of them.
      expect(mostParts).toBeGreaterThan(0);
      expect(mostParts).toBeLessThanOrEqual(3);
    }, 60_000);
  }
});

describe('the receipts first pages without the items', () => {
  it('answer the receipts table and the review list of a process with no first pages to use, from the receipts and merchants alone', async () => {
    const { store, blobs } = await newEnv();
    await runRandomWrites({ store, blobs }, 'dan', 5, 30);
    const index = buildReportIndex(await appDataFromAllRows(store, 'dan'));
    // Another process built the report and stored its first pages (see below)...
    const other = { store, blobs, logger: silentLogger, reportCache: createReportCache() };
    await queryReport(other, identity('dan'), reportQuery.parse({ userId: 'dan', table: 'items' }));
    // ...but, as after a bulk import, of a version the change log does not reach back to.
    const key = reportPagesCacheKey('dan');
    const stored = JSON.parse(new TextDecoder().decode((await blobs.get(key))!.bytes)) as FirstPages;
    const older = JSON.stringify({ ...stored, version: 'before-the-import' });
    await blobs.put(key, new TextEncoder().encode(older), 'application/json');
    const listed: string[] = [];
    const counting = Object.create(store) as MemoryTableStore;
    counting.listEntities = (table, options) => {
      listed.push(table);
      return store.listEntities(table, options);
    };
    const cache = createReportCache();
    const deps = { store: counting, blobs, logger: silentLogger, reportCache: cache };
    const queries: Record<string, string>[] = [
      { table: 'receipts', review: 'needed', pageSize: '1' },
      { table: 'receipts' },
      { table: 'receipts', sort: 'merchant', dir: 'asc', pageSize: '7' },
    ];
    for (const query of queries) {
      const parsed = reportQuery.parse({ userId: 'dan', pageSize: '25', ...query });
      const { userId: _userId, pageSize, ...rest } = parsed;
      const expected = scanReportIndex(index, { ...rest, pageSize: pageSize ?? 25 });
      expect(await queryReport(deps, identity('dan'), parsed), JSON.stringify(query)).toEqual(expected);
    }
    expect(cache.get('dan')?.index).toBeUndefined();
    expect(listed).not.toContain(TABLES.items);
    expect(listed.filter((t) => t === TABLES.receipts)).toHaveLength(1);
    // The items table still needs the report index, whose build stores the first pages again.
    await queryReport(deps, identity('dan'), reportQuery.parse({ userId: 'dan', table: 'items' }));
    expect(cache.get('dan')?.index?.version).toBe(index.version);
    const now = JSON.parse(new TextDecoder().decode((await blobs.get(key))!.bytes)) as FirstPages;
    expect(now.version).toBe(index.version);
  });

  it('share one listing of the receipts with the report built from all rows at the same time', async () => {
    const { store, blobs } = await newEnv();
    await runRandomWrites({ store, blobs }, 'eve', 8, 12);
    const data = await appDataFromAllRows(store, 'eve');
    // A first import: neither first pages nor report data stored.
    for (const key of await blobs.list('cache/eve/')) await blobs.delete(key);
    const listed: string[] = [];
    const counting = Object.create(store) as MemoryTableStore;
    counting.listEntities = (table, options) => {
      listed.push(table);
      return store.listEntities(table, options);
    };
    const deps = { store: counting, blobs, logger: silentLogger, reportCache: createReportCache() };
    const ask = (table: string) =>
      queryReport(deps, identity('eve'), reportQuery.parse({ userId: 'eve', table, pageSize: '5' }));
    const [receipts, items] = await Promise.all([ask('receipts'), ask('items')]);
    const index = buildReportIndex(data);
    expect(receipts).toEqual(scanReportIndex(index, { table: 'receipts', pageSize: 5 }));
    expect(items).toEqual(scanReportIndex(index, { table: 'items', pageSize: 5 }));
    expect(listed.filter((t) => t === TABLES.receipts)).toHaveLength(1);
    expect(listed).toContain(TABLES.items);
  });
});

describe('the report cache', () => {
  it('is owned by each deps object: two processes do not share one', async () => {
    const { store, blobs } = await newEnv();
    await runRandomWrites({ store, blobs }, 'cat', 3, 8);
    const one = { store, blobs, logger: silentLogger, reportCache: createReportCache() };
    const other = { store, blobs, logger: silentLogger, reportCache: createReportCache() };
    const query = reportQuery.parse({ userId: 'cat', table: 'receipts', q: 'a' });
    await queryReport(one, identity('cat'), query);
    expect(one.reportCache.get('cat')?.index).toBeDefined();
    expect(other.reportCache.get('cat')).toBeUndefined();
    one.reportCache.delete('cat');
    expect(one.reportCache.get('cat')).toBeUndefined();
  });

  it('keeps the most recently served users only', async () => {
    const cache = createReportCache({ maxUsers: 2 });
    cache.set('a', {});
    cache.set('b', {});
    cache.get('a');
    cache.set('c', {});
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
  });

  it('shares one build among callers arriving together', async () => {
    const cache = createReportCache();
    let runs = 0;
    const work = async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return runs;
    };
    expect(await Promise.all([cache.shared('k', work), cache.shared('k', work)])).toEqual([1, 1]);
    expect(await cache.shared('k', work)).toBe(2);
  });
});
