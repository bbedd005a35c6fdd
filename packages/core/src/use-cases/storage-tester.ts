import type { StorageRecord } from '../contract/requests';
import { REQUIRED_TABLES } from '../entities';
import { ForbiddenError, NotFoundError } from '../errors';
import type { StoredEntity, TableStore } from '../table-store';

/** Partition of the records the Storage Tester creates; only these can be deleted through it. */
export const TEST_PARTITION = 'storage-tester';
/** Records per page in the Storage Tester. */
export const STORAGE_PAGE_SIZE = 50;

function assertKnownTable(table: string): void {
  if (!(REQUIRED_TABLES as readonly string[]).includes(table)) {
    throw new NotFoundError(`There is no table "${table}"; the tables are ${REQUIRED_TABLES.join(', ')}.`, {
      code: 'TableNotFound',
    });
  }
}

function toRecord(entity: StoredEntity): StorageRecord {
  const out: StorageRecord = { partitionKey: entity.partitionKey, rowKey: entity.rowKey };
  for (const [key, value] of Object.entries(entity)) {
    out[key] = value instanceof Date ? value.toISOString() : value;
  }
  return out;
}

/** The tables of the store (admin). */
export async function listStorageTables(store: TableStore): Promise<{ tables: string[] }> {
  return { tables: await store.listTables() };
}

/**
 * One page of a table's test records (admin): only the test partition, never users' rows, which
 * the storage tester has no reason to show.
 */
export async function listStorageRecords(
  store: TableStore,
  input: { table: string; continuationToken?: string | undefined },
): Promise<{ records: StorageRecord[]; continuationToken?: string }> {
  assertKnownTable(input.table);
  const page = await store.listEntities(input.table, {
    partitionKey: TEST_PARTITION,
    pageSize: STORAGE_PAGE_SIZE,
    continuationToken: input.continuationToken,
  });
  return {
    records: page.items.map(toRecord),
    ...(page.continuationToken ? { continuationToken: page.continuationToken } : {}),
  };
}

/** Creates a test record in a table (admin). */
export async function createStorageTestRecord(
  store: TableStore,
  input: { table: string },
  now: Date = new Date(),
): Promise<StorageRecord> {
  assertKnownTable(input.table);
  const record = {
    partitionKey: TEST_PARTITION,
    rowKey: `test-${now.getTime()}-${Math.random().toString(36).slice(2, 8)}`,
    note: 'Created by the storage tester',
    created_at: now.toISOString(),
  };
  await store.createEntity(input.table, record);
  return record;
}

/** Deletes a test record (admin). Other records are refused: this page is for testing the store. */
export async function deleteStorageTestRecord(
  store: TableStore,
  input: { table: string; partitionKey: string; rowKey: string },
): Promise<{ deleted: true }> {
  assertKnownTable(input.table);
  if (input.partitionKey !== TEST_PARTITION) {
    throw new ForbiddenError(
      `Only test records (partitionKey "${TEST_PARTITION}") can be deleted from the storage tester.`,
      { code: 'NotATestRecord' },
    );
  }
  await store.deleteEntity(input.table, input.partitionKey, input.rowKey);
  return { deleted: true };
}
