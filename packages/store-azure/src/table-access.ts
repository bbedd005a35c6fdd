import {
  AzureNamedKeyCredential,
  generateAccountSas,
  generateTableSas,
  TableServiceClient,
} from '@azure/data-tables';
import { ConfigurationError } from '@receipts/core';
import { ACCESS_LEVELS, TABLE_ACCESS_LEVELS, type TableAccessLevel } from './access-levels';
import { checkTablesEndpoint, fromConnectionString } from './connection-string';

/**
 * The signatures of one access level: what a function's secret holds instead of the account's
 * connection string. Each table has its own signature with only the level's permissions, so the
 * function can do nothing else, in no other table, whatever its code does.
 */
export interface TableAccess {
  /** The Table service URL, without a signature. */
  readonly endpoint: string;
  readonly level: TableAccessLevel;
  /** When the signatures stop working (ISO 8601). */
  readonly expiresOn: string;
  /** A table's signature (query string without `?`), by table name. */
  readonly tables: Readonly<Record<string, string>>;
  /** An account signature that may list tables and nothing else, for levels that list them. */
  readonly listTables?: string;
}

/** The account name and key of an account-key connection string. */
function namedKey(connectionString: string): AzureNamedKeyCredential {
  const parts = new Map<string, string>();
  for (const part of connectionString.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) parts.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  const name = parts.get('AccountName');
  const key = parts.get('AccountKey');
  if (!name || !key) {
    throw new ConfigurationError(
      'Signatures are made with the account key: give the connection string with AccountName and ' +
        'AccountKey (the storage account > Access keys), not a shared-access-signature one.',
      { code: 'NoAccountKey' },
    );
  }
  return new AzureNamedKeyCredential(name, key);
}

/**
 * Makes the per-table signatures of an access level with the account key. The key stays with
 * whoever runs this (`npm run tables:access`); only the signatures go into the level's secret.
 * @param connectionString - the account-key connection string
 * @param level - which functions the signatures are for (see ACCESS_LEVELS)
 * @param expiresOn - when they stop working; make new ones before then
 * @throws ConfigurationError when the connection string has no account key or a wrong endpoint
 */
export function createTableAccess(
  connectionString: string,
  level: TableAccessLevel,
  expiresOn: Date,
): TableAccess {
  const credential = namedKey(connectionString);
  const client = fromConnectionString(connectionString, (value) =>
    TableServiceClient.fromConnectionString(value, { allowInsecureConnection: true }),
  );
  const endpoint = checkTablesEndpoint(client.url).url;
  const { tables, listTables } = ACCESS_LEVELS[level];
  const protocol = endpoint.startsWith('https:') ? 'https' : 'https,http';
  return {
    endpoint,
    level,
    expiresOn: expiresOn.toISOString(),
    tables: Object.fromEntries(
      Object.entries(tables).map(([table, { partitionKey, ...permissions }]) => [
        table,
        generateTableSas(table, credential, {
          permissions,
          expiresOn,
          protocol,
          ...(partitionKey === undefined
            ? {}
            : { startPartitionKey: partitionKey, endPartitionKey: partitionKey }),
        }).replace(/^\?/, ''),
      ]),
    ),
    ...(listTables
      ? {
          listTables: generateAccountSas(credential, {
            services: { table: true },
            resourceTypes: 'c',
            permissions: { list: true },
            expiresOn,
            protocol,
          }).replace(/^\?/, ''),
        }
      : {}),
  };
}

/**
 * Reads an access level's signatures as stored in its secret (the JSON of createTableAccess).
 * @throws ConfigurationError saying what is missing, without repeating any signature
 */
export function parseTableAccess(text: string): TableAccess {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ConfigurationError(
      'The Azure tables access is not JSON; store the output of `npm run tables:access`.',
      {
        code: 'MalformedTableAccess',
        cause,
      },
    );
  }
  const access = value as Partial<TableAccess> | null;
  const strings = (record: unknown) =>
    typeof record === 'object' &&
    record !== null &&
    Object.values(record).every((sas) => typeof sas === 'string' && sas !== '');
  if (
    typeof access?.endpoint !== 'string' ||
    !TABLE_ACCESS_LEVELS.includes(access.level as TableAccessLevel) ||
    typeof access.expiresOn !== 'string' ||
    !strings(access.tables) ||
    (access.listTables !== undefined && typeof access.listTables !== 'string')
  ) {
    throw new ConfigurationError(
      'The Azure tables access needs endpoint, level, expiresOn and a signature per table; store the ' +
        'output of `npm run tables:access` unchanged.',
      { code: 'MalformedTableAccess' },
    );
  }
  return access as TableAccess;
}

/** Whether a secret's text is a table access document rather than a connection string. */
export const isTableAccess = (text: string): boolean => text.trimStart().startsWith('{');
