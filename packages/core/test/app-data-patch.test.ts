import { describe, expect, it } from 'vitest';
import {
  MAX_DATA_CHANGES,
  MAX_DATA_CHANGES_CHARS,
  repositories,
  TABLES,
  appDataAt,
  appendDataChange,
  buildReportIndex,
  queryReportIndex,
  changedSince,
  getAppDataJson,
  parseDataChanges,
  queryReport,
  silentLogger,
  createReportCache,
  updateMerchant,
  type DataChange,
  type TableEntity,
} from '../src';
import { reportQuery } from '../src/contract/reports';
import { MemoryBlobStore, identity } from './support/fakes';
import { MemoryTableStore } from './support/memory-table-store';
import { appDataFromAllRows, prng, runRandomWrites } from './support/totals-scenario';

/** A memory store that records the user-wide listings (a full read of a user's receipts). */
class ListingStore extends MemoryTableStore {
  fullListings = 0;
  override async listEntities<T extends TableEntity = TableEntity>(
    ...args: Parameters<MemoryTableStore['listEntities']>
  ) {
    const [table, options] = args;
    if (table === TABLES.receipts && options?.partitionKey && !options.filter) this.fullListings++;
    return super.listEntities<T>(...args);
  }
}

async function newEnv() {
  const store = new ListingStore();
  for (const table of Object.values(TABLES)) await store.createTable(table);
  const blobs = new MemoryBlobStore();
  return { store, blobs, deps: { store, blobs, logger: silentLogger, reportCache: createReportCache() } };
}

describe('the report data brought up to date from what changed', () => {
  for (const seed of [3, 58]) {
    it(`equals a full rebuild after every write of a random sequence, without reading every receipt (seed ${seed})`, async () => {
      const { store, blobs, deps } = await newEnv();
      const user = `patch${seed}`;
      const random = prng(seed * 7 + 1);
      let renames = 0;
      let rebuilds = 0;
      await runRandomWrites({ store, blobs }, user, seed, 60, async (step, op) => {
        // Now and then a person renames a merchant too (every receipt of it shows the new name).
        const merchants = await repositories(store).merchants.listMerchants(user);
        if (merchants.length > 0 && random() < 0.15) {
          const merchant = merchants[Math.floor(random() * merchants.length)]!;
          const etag = (await store.getEntity(TABLES.merchants, user, merchant.merchant_id))!.etag;
          await updateMerchant(deps, identity(user), {
            userId: user,
            merchantId: merchant.merchant_id,
            etag,
            changes: { name: `${merchant.name} (${step})` },
          });
          renames++;
        }
        const listed = store.fullListings;
        const state = await repositories(store).users.getDataState(user);
        const data = await appDataAt(deps, user, state);
        if (store.fullListings > listed) rebuilds++;
        expect(data, `seed ${seed}, step ${step} (${op})`).toEqual(await appDataFromAllRows(store, user));
      });
      expect(renames).toBeGreaterThan(0);
      // The first scan's worker built the report from all rows; every later read patched it.
      expect(rebuilds).toBe(0);
    });
  }

  it('patches the cached copy in another process, and serves getAppData from it', async () => {
    const { store, blobs, deps } = await newEnv();
    await runRandomWrites({ store, blobs }, 'bob', 12, 15);
    const listed = store.fullListings;
    // A process that holds nothing: the cache the worker wrote after the last scan, patched.
    deps.reportCache.clear();
    const json = await getAppDataJson(deps, identity('bob'), { userId: 'bob' });
    expect(JSON.parse(json)).toEqual(await appDataFromAllRows(store, 'bob'));
    expect(store.fullListings).toBe(listed + 1); // the fullBuild above, not getAppDataJson
    // The patched copy was written back: its version is the current one.
    const cached = new TextDecoder().decode((await blobs.get('cache/bob/app-data.json'))!.bytes);
    expect(cached).toBe(json);
  });

  it('rebuilds from all rows when the log does not reach back to the copy', async () => {
    const { store, blobs, deps } = await newEnv();
    await runRandomWrites({ store, blobs }, 'carol', 21, 10);
    await appDataAt(deps, 'carol', await repositories(store).users.getDataState('carol'));
    // A write that does not say what it changed (as a data import would) empties the log.
    await repositories(store).users.bumpDataVersion('carol', new Date());
    const listed = store.fullListings;
    const data = await appDataAt(deps, 'carol', await repositories(store).users.getDataState('carol'));
    expect(store.fullListings).toBe(listed + 1);
    expect(data).toEqual(await appDataFromAllRows(store, 'carol'));
  });

  it('serves report pages from the patched data: a write shows on the next page read', async () => {
    const { store, blobs, deps } = await newEnv();
    const ask = () =>
      queryReport(
        deps,
        identity('dave'),
        reportQuery.parse({ userId: 'dave', table: 'receipts', pageSize: '100' }),
      );
    let listed = 0;
    await runRandomWrites({ store, blobs }, 'dave', 40, 20, async (step, op) => {
      const before = store.fullListings;
      const page = await ask();
      listed += store.fullListings - before;
      const {
        userId: _userId,
        pageSize,
        ...query
      } = reportQuery.parse({ userId: 'dave', table: 'receipts' });
      const expected = queryReportIndex(buildReportIndex(await appDataFromAllRows(store, 'dave')), {
        ...query,
        pageSize: pageSize ?? 100,
      });
      expect(page, `step ${step} (${op})`).toEqual(expected);
    });
    expect(listed).toBe(0);
  });

  it('logs writes made at the same time one after the other', async () => {
    const store = new MemoryTableStore();
    for (const table of Object.values(TABLES)) await store.createTable(table);
    const repos = repositories(store);
    const start = await repos.users.bumpDataVersion('erin', new Date(), { files: ['a.jpg'] });
    const files = Array.from({ length: 8 }, (_, i) => `${i}.jpg`);
    await Promise.all(
      files.map((file) => repos.users.bumpDataVersion('erin', new Date(), { files: [file] })),
    );
    const state = await repos.users.getDataState('erin');
    expect(changedSince(state.changes, start, state.version)?.files.sort()).toEqual(files);
  });
});

describe('the data change log', () => {
  const change = (from: string, to: string, files: string[] = [], merchants: string[] = []): DataChange => ({
    from,
    to,
    files,
    merchants,
  });

  it('gathers what changed along an unbroken chain of versions', () => {
    const log = [
      change('0', 'a', ['1.jpg']),
      change('a', 'b', ['2.jpg'], ['m1']),
      change('b', 'c', ['1.jpg']),
    ];
    expect(changedSince(log, 'a', 'c')).toEqual({ files: ['2.jpg', '1.jpg'], merchants: ['m1'] });
    expect(changedSince(log, 'c', 'c')).toEqual({ files: [], merchants: [] });
    expect(changedSince(log, 'x', 'c')).toBeNull(); // older than the log
    expect(changedSince([change('0', 'a'), change('z', 'c')], '0', 'c')).toBeNull(); // broken
    expect(changedSince(log, 'a', 'q')).toBeNull(); // never reaches the current version
  });

  it('keeps the newest writes within its size limits, and reads damaged text as empty', () => {
    let log: DataChange[] = [];
    for (let i = 0; i < MAX_DATA_CHANGES + 20; i++)
      log = appendDataChange(log, change(`v${i}`, `v${i + 1}`, [`${i}.jpg`]));
    expect(log).toHaveLength(MAX_DATA_CHANGES);
    expect(log.at(-1)!.to).toBe(`v${MAX_DATA_CHANGES + 20}`);
    const huge = change(
      'v',
      'w',
      Array.from({ length: 2_000 }, (_, i) => `receipt-${i}.jpg`),
    );
    expect(appendDataChange(log, huge)).toEqual([]);
    const wide = Array.from({ length: 40 }, (_, i) =>
      change(`${i}`, `${i + 1}`, [`${'x'.repeat(600)}${i}.jpg`]),
    );
    expect(JSON.stringify(wide.reduce(appendDataChange, [] as DataChange[])).length).toBeLessThanOrEqual(
      MAX_DATA_CHANGES_CHARS,
    );
    expect(parseDataChanges('not json')).toEqual([]);
    expect(parseDataChanges('[{"from":"a"}]')).toEqual([]);
    expect(parseDataChanges(JSON.stringify(log))).toEqual(log);
  });
});
