import { REQUIRED_TABLES, TABLES, TEST_PARTITION, type TableName } from '@receipts/core';

/**
 * What a function may do in the Azure tables, one level per kind of function. Each level becomes a
 * set of per-table shared access signatures (see createTableAccess) kept in a secret of its own, so
 * that a function holds only its level's signatures and never the account key. Functions that touch
 * no table (`/api/log`, the brand list) get no level and no secret at all.
 */
export type TableAccessLevel = 'read' | 'settle' | 'readWrite' | 'queueKeeper' | 'storageTester';

/** The operations a signature allows on one table (Azure's `sp` of query, add, update, delete). */
export interface TablePermissions {
  readonly query: boolean;
  readonly add: boolean;
  readonly update: boolean;
  readonly delete: boolean;
  /** When set, the signature covers this partition only (Azure's `spk` = `epk`). */
  readonly partitionKey?: string;
}

export interface AccessLevel {
  /** Who gets it, in words, for the CLI and the docs. */
  readonly description: string;
  /** A signature per table; a table not listed cannot be reached at all. */
  readonly tables: Readonly<Record<string, TablePermissions>>;
  /** Whether it may list the account's tables (an account signature for Query Tables only). */
  readonly listTables: boolean;
}

const READ: TablePermissions = { query: true, add: false, update: false, delete: false };
const WRITE: TablePermissions = { query: true, add: true, update: true, delete: true };
const everyTable = (permissions: TablePermissions) =>
  Object.fromEntries(REQUIRED_TABLES.map((table) => [table, permissions]));

/**
 * The tables the report routes write when they finish a user's writes and uploads that stopped
 * half-way (core's commit-write.ts and settle-uploads.ts): the intents, reservations, data version
 * and image index on the user's rows, the report totals and their bookkeeping, a stopped upload's
 * queue entry, the items and taxes a stopped scan left, and a merchant it left without receipts.
 * Never a receipt, a brand or a corporation.
 */
export const SETTLE_WRITE_TABLES: readonly TableName[] = [
  TABLES.users,
  TABLES.totals,
  TABLES.totalsApplied,
  TABLES.scanQueue,
  TABLES.items,
  TABLES.taxes,
  TABLES.merchants,
];

export const ACCESS_LEVELS: Readonly<Record<TableAccessLevel, AccessLevel>> = {
  read: {
    description: 'routes that only read: lists, the data download',
    tables: everyTable(READ),
    listTables: false,
  },
  settle: {
    description:
      'routes that read reports and first finish the user’s writes and uploads that stopped half-way',
    tables: { ...everyTable(READ), ...Object.fromEntries(SETTLE_WRITE_TABLES.map((t) => [t, WRITE])) },
    listTables: false,
  },
  readWrite: {
    description: 'routes that write a user’s rows, and the scan worker',
    tables: everyTable(WRITE),
    listTables: false,
  },
  queueKeeper: {
    // Reads, re-queues and fails scan queue entries (an upsert is add + update); deletes nothing.
    description: 'the queue sweeper and the dead-letter consumer: the scan queue table only, no deletes',
    tables: { [TABLES.scanQueue]: { query: true, add: true, update: true, delete: false } },
    listTables: false,
  },
  storageTester: {
    description: `the Storage Tester routes: the "${TEST_PARTITION}" partition of each table, and the table list`,
    tables: everyTable({ query: true, add: true, update: false, delete: true, partitionKey: TEST_PARTITION }),
    listTables: true,
  },
};

export const TABLE_ACCESS_LEVELS = Object.keys(ACCESS_LEVELS) as TableAccessLevel[];
