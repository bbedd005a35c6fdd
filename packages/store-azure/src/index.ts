export { AzureTableStore, type AzureTableStoreOptions } from './azure-table-store';
export {
  AZURITE_ACCOUNT_KEY,
  AZURITE_ACCOUNT_NAME,
  AZURITE_TABLE_PORT,
  azuriteConnectionString,
  checkTablesEndpoint,
  fromConnectionString,
  type TablesEndpoint,
} from './connection-string';
export { isRestError, toStoreError, toTransactionError } from './errors';
export { doubleLiteral, fromAzureEntity, literal, quote, toAzureEntity, toODataFilter } from './odata';
export { resetTables, setupTables, SETUP_CHECK_PARTITION, type TableSetupOutcome } from './setup';
export {
  ACCESS_LEVELS,
  TABLE_ACCESS_LEVELS,
  type AccessLevel,
  type TableAccessLevel,
  type TablePermissions,
} from './access-levels';
export { createTableAccess, isTableAccess, parseTableAccess, type TableAccess } from './table-access';
