import { useState } from 'react';
import {
  Button,
  Field,
  Select,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { StorageRecord } from '@receipts/core/contract/requests';
import { shortenString } from '../../../components/json-tree';
import { Page } from '../../../components/page';
import { errorMessage } from '../../../lib/api-client';
import { useCreateTestRecord, useDeleteRecord, useRecords, useTables } from '../api/storage';

const useStyles = makeStyles({
  row: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'end' },
  error: { color: tokens.colorPaletteRedForeground1, margin: 0 },
  wrap: { overflowX: 'auto' },
  mono: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
});

function extraFields(record: StorageRecord): string {
  const rest = Object.fromEntries(
    Object.entries(record).filter(([key]) => !['partitionKey', 'rowKey', 'etag', 'timestamp'].includes(key)),
  );
  return shortenString(JSON.stringify(rest), 80);
}

function ErrorText({ error }: { error: unknown }) {
  const styles = useStyles();
  if (!error) return null;
  return (
    <p role="alert" className={styles.error}>
      {errorMessage(error)}
    </p>
  );
}

/** The developer test page (spec §2): list, create and delete test records. The API allows only the admin. */
export function StorageTesterPage() {
  const styles = useStyles();
  const tables = useTables();
  const [table, setTable] = useState('');
  const records = useRecords(table);
  const create = useCreateTestRecord();
  const remove = useDeleteRecord();
  const names = tables.data ?? [];
  const rows = records.data?.pages.flatMap((page) => page.records);

  return (
    <Page title="Storage Tester">
      <div className={styles.row}>
        <Button appearance="primary" onClick={() => void tables.refetch()} disabled={tables.isFetching}>
          List tables
        </Button>
        <Field label="Table">
          <Select value={table} onChange={(_, d) => setTable(d.value)} disabled={names.length === 0}>
            <option value="">{names.length === 0 ? 'List the tables first' : 'Choose a table'}</option>
            {names.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
        </Field>
        <Button onClick={() => void records.refetch()} disabled={!table || records.isFetching}>
          List records
        </Button>
        <Button
          onClick={() => create.mutate(table, { onSuccess: () => void records.refetch() })}
          disabled={!table || create.isPending}
        >
          Create test record
        </Button>
      </div>
      {tables.data && (
        <Text>
          {names.length} tables: {names.join(', ')}
        </Text>
      )}
      <ErrorText error={tables.error} />
      <ErrorText error={records.error} />
      <ErrorText error={create.error} />
      <ErrorText error={remove.error} />
      {create.data && (
        <Text role="status">
          Created record {create.data.partitionKey} / {create.data.rowKey}.
        </Text>
      )}
      {rows && (
        <div className={styles.wrap}>
          <Table aria-label={`Records of ${table}`} size="small">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>partitionKey</TableHeaderCell>
                <TableHeaderCell>rowKey</TableHeaderCell>
                <TableHeaderCell>Fields</TableHeaderCell>
                <TableHeaderCell style={{ width: '96px' }}>
                  <span className="visually-hidden">Delete</span>
                </TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((record) => (
                <TableRow key={`${record.partitionKey}|${record.rowKey}`}>
                  <TableCell className={styles.mono}>{record.partitionKey}</TableCell>
                  <TableCell className={styles.mono}>{record.rowKey}</TableCell>
                  <TableCell className={styles.mono}>{extraFields(record)}</TableCell>
                  <TableCell>
                    <Button
                      size="small"
                      disabled={remove.isPending}
                      aria-label={`Delete record ${record.partitionKey} ${record.rowKey}`}
                      onClick={() =>
                        remove.mutate(
                          { table, partitionKey: record.partitionKey, rowKey: record.rowKey },
                          { onSuccess: () => void records.refetch() },
                        )
                      }
                    >
                      Delete
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
              {rows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={4}>No records in {table}.</TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
          {records.hasNextPage && (
            <Button onClick={() => void records.fetchNextPage()} disabled={records.isFetchingNextPage}>
              More records
            </Button>
          )}
        </div>
      )}
    </Page>
  );
}
