import { describe, expect, it } from 'vitest';
import { TABLES, getAppData, uploadReceipt, type ListOptions } from '../../src';
import { dataUrlOf, fakeReceiptImage, identity } from '../support/fakes';
import { createWorld } from '../support/world';

const alice = identity('alice');

describe('the report cache and a lagging index', () => {
  it('never caches a report that misses the items of a receipt it shows', async () => {
    const world = await createWorld();
    // Like DynamoDB's global secondary index just after a write: a listing of a key range (the
    // user's item partitions) does not see the newest receipt's items yet; a partition read does.
    const list = world.store.listEntities.bind(world.store);
    world.store.listEntities = (async (table: string, options: ListOptions = {}) => {
      const page = await list(table, options);
      if (table !== TABLES.items || options.partitionKeyPrefix === undefined) return page;
      return { ...page, items: page.items.filter((row) => !row.partitionKey.endsWith('2-receipt.jpg')) };
    }) as typeof world.store.listEntities;

    for (const [fileName, price] of [
      ['1-receipt.jpg', 2],
      ['2-receipt.jpg', 3],
    ] as const) {
      await uploadReceipt(world.deps, alice, {
        userId: 'alice',
        fileName,
        imgSrc: dataUrlOf(
          fakeReceiptImage({
            merchant: 'LIDL',
            date: '2024-04-02',
            total: price * 2,
            items: [
              { description: 'BREAD', price },
              { description: 'MILK', price },
            ],
          }),
        ),
      });
    }
    expect((await world.drain()).map((r) => r.outcome)).toEqual(['analysed', 'analysed']);

    // The worker cached the report after the second scan; it is served as it was cached.
    const data = await getAppData(world.deps, alice, { userId: 'alice' });
    expect(data.reportReceipts).toHaveLength(2);
    expect(data.reportProductItems.map((i) => i.receipt_id).sort()).toEqual([
      'alice~1-receipt.jpg',
      'alice~1-receipt.jpg',
      'alice~2-receipt.jpg',
      'alice~2-receipt.jpg',
    ]);
  });
});
