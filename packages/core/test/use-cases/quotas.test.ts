import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  REQUIRED_TABLES,
  TABLES,
  TooManyRequestsError,
  reserveUpload,
  type TableEntity,
  type UpdateMode,
  type WriteOptions,
} from '../../src';
import { MemoryTableStore } from '../support/memory-table-store';

const QUOTAS = {
  uploadsPerDay: 100,
  pendingScans: 100,
  storedBytes: 1024 * 1024 * 1024,
  reanalysesPerDay: 100,
};
const NOW = new Date('2024-05-01T12:00:00Z');

/** A store whose updates of the Users table lose to another writer the first `losses` times. */
class ContendedStore extends MemoryTableStore {
  constructor(private losses: number) {
    super();
  }
  override async updateEntity(table: string, entity: TableEntity, mode?: UpdateMode, options?: WriteOptions) {
    if (table === TABLES.users && this.losses > 0) {
      this.losses -= 1;
      throw new ConflictError(
        `The entity with partitionKey "${entity.partitionKey}" and rowKey "${entity.rowKey}" in table "Users" was changed.`,
        { code: 'EtagMismatch' },
      );
    }
    return super.updateEntity(table, entity, mode, options);
  }
}

async function storeWithUser(losses: number): Promise<ContendedStore> {
  const store = new ContendedStore(losses);
  for (const table of REQUIRED_TABLES) await store.createTable(table);
  await store.createEntity(TABLES.users, { partitionKey: 'ann', rowKey: 'ann', user_id: 'ann' });
  return store;
}

describe('upload quota counter under contention', () => {
  it('counts an upload that lost a few races on the user row', async () => {
    const store = await storeWithUser(5);
    await reserveUpload(store, QUOTAS, 'ann', 1000, NOW, 'a.jpg');
    const row = await store.getEntity(TABLES.users, 'ann', 'ann');
    expect(row).toMatchObject({ quota_uploads: 1, stored_bytes: 1000 });
  });

  it(
    'asks to try again in a second, without naming the table or keys, when it keeps losing',
    { timeout: 30_000 },
    async () => {
      const store = await storeWithUser(1000);
      const error = await reserveUpload(store, QUOTAS, 'ann', 1000, NOW, 'a.jpg').then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(TooManyRequestsError);
      expect((error as TooManyRequestsError).retryAfterSeconds).toBe(1);
      expect((error as Error).message).toMatch(/try again in a second/i);
      expect((error as Error).message).not.toMatch(/Users|partitionKey|rowKey|ann/);
    },
  );
});
