import { randomUUID } from 'node:crypto';
import { REQUIRED_TABLES, TABLES, type Logger, type TableStore } from '@receipts/core';

/** How setting up one table went. */
export interface TableSetupOutcome {
  table: string;
  ok: boolean;
  /** Why it failed, in the store's words. */
  error?: string;
}

/** Partition of the sample row written and removed again to prove a table works. */
export const SETUP_CHECK_PARTITION = 'setup-check';

/**
 * The set-up routine (spec §7): creates each required table (one that exists is fine), inserts a
 * sample row and deletes it again, and logs the outcome per table and overall. One table's failure
 * does not stop the others.
 *
 * @param store - any TableStore
 * @param logger - where the outcome is logged
 * @param tables - the tables to set up; default the required ones (Users, Receipts, Merchants, Items,
 * Taxes, Brands, Corporations and the scan queue)
 * @returns one outcome per table, in order
 */
export async function setupTables(
  store: TableStore,
  logger: Logger,
  tables: readonly string[] = REQUIRED_TABLES,
): Promise<TableSetupOutcome[]> {
  const outcomes: TableSetupOutcome[] = [];
  for (const table of tables) {
    try {
      await store.createTable(table);
      const sample = { partitionKey: SETUP_CHECK_PARTITION, rowKey: randomUUID(), checkedAt: new Date() };
      await store.createEntity(table, sample);
      await store.deleteEntity(table, sample.partitionKey, sample.rowKey);
      logger.info('Table ready: a sample row was inserted and deleted.', { table });
      outcomes.push({ table, ok: true });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.error('Table setup failed.', { table, error: message });
      outcomes.push({ table, ok: false, error: message });
    }
  }
  const failed = outcomes.filter((outcome) => !outcome.ok).map((outcome) => outcome.table);
  if (failed.length === 0) logger.info('Table setup finished.', { ready: outcomes.length });
  else
    logger.error('Table setup finished with failures.', { ready: outcomes.length - failed.length, failed });
  return outcomes;
}

/**
 * The reset routine (spec §7): deletes every table except Users, with all its rows.
 *
 * @param store - any TableStore
 * @param logger - where each deletion is logged
 * @returns the names of the deleted tables
 */
export async function resetTables(store: TableStore, logger: Logger): Promise<string[]> {
  // Azure table names are case-insensitive: "users" is the Users table too.
  const doomed = (await store.listTables()).filter(
    (table) => table.toLowerCase() !== TABLES.users.toLowerCase(),
  );
  for (const table of doomed) {
    await store.deleteTable(table);
    logger.info('Table deleted.', { table });
  }
  logger.info('Reset finished; Users was kept.', { deleted: doomed });
  return doomed;
}
