import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StorageRecord } from '@receipts/core/api';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/storage/tables: the table names (admin only). */
export async function listTables(): Promise<string[]> {
  const answer = await apiRequest<string[] | { tables: string[] }>('storageListTables');
  return Array.isArray(answer) ? answer : (answer?.tables ?? []);
}

/** GET /api/storage/records?table=: the rows of one table (admin only). */
export async function listRecords(table: string): Promise<StorageRecord[]> {
  const answer = await apiRequest<StorageRecord[] | { records: StorageRecord[] }>('storageListRecords', {
    query: { table },
  });
  return Array.isArray(answer) ? answer : (answer?.records ?? []);
}

/** POST /api/storage/records {table}: writes a test record. */
export function createTestRecord(table: string): Promise<StorageRecord> {
  return apiRequest<StorageRecord>('storageCreateRecord', { body: { table } });
}

/** DELETE /api/storage/records?table=&partitionKey=&rowKey=. */
export function deleteRecord(input: {
  table: string;
  partitionKey: string;
  rowKey: string;
}): Promise<unknown> {
  return apiRequest<unknown>('storageDeleteRecord', { query: input });
}

/** Listing waits for the button (spec: buttons to list), so `enabled` stays false. */
export function useTables() {
  return useQuery({ queryKey: queryKeys.storageTables(), queryFn: listTables, enabled: false, retry: false });
}

export function useRecords(table: string) {
  return useQuery({
    queryKey: queryKeys.storageRecords(table),
    queryFn: () => listRecords(table),
    enabled: false,
    retry: false,
  });
}

export function useCreateTestRecord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTestRecord,
    onSuccess: (_record, table) => queryClient.refetchQueries({ queryKey: queryKeys.storageRecords(table) }),
  });
}

export function useDeleteRecord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRecord,
    onSuccess: (_answer, { table }) =>
      queryClient.refetchQueries({ queryKey: queryKeys.storageRecords(table) }),
  });
}
