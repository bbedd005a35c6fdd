import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import type { RouteAnswers } from '@receipts/core/contract/answers';
import type { StorageRecord } from '@receipts/core/contract/requests';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/storage/tables: the table names (admin only). */
export async function listTables(): Promise<string[]> {
  return (await apiRequest('storageListTables')).tables;
}

/** One page of a table's rows; `continuationToken` asks for the next. */
export type RecordsPage = RouteAnswers['storageListRecords'];

/** GET /api/storage/records?table=&continuationToken=: one page of a table's rows (admin only). */
export async function listRecords(table: string, continuationToken?: string): Promise<RecordsPage> {
  return apiRequest('storageListRecords', { query: { table, continuationToken } });
}

/** POST /api/storage/records {table}: writes a test record. */
export function createTestRecord(table: string): Promise<StorageRecord> {
  return apiRequest('storageCreateRecord', { body: { table } });
}

/** DELETE /api/storage/records?table=&partitionKey=&rowKey=. */
export function deleteRecord(input: {
  table: string;
  partitionKey: string;
  rowKey: string;
}): Promise<unknown> {
  return apiRequest('storageDeleteRecord', { query: input });
}

/** Listing waits for the button (spec: buttons to list), so `enabled` stays false. */
export function useTables() {
  return useQuery({ queryKey: queryKeys.storageTables(), queryFn: listTables, enabled: false, retry: false });
}

export function useRecords(table: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.storageRecords(table),
    queryFn: ({ pageParam }) => listRecords(table, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.continuationToken,
    enabled: false,
    retry: false,
  });
}

/** Writes a test record; the caller refreshes the (button-driven, so disabled) listing. */
export function useCreateTestRecord() {
  return useMutation({ mutationFn: createTestRecord });
}

export function useDeleteRecord() {
  return useMutation({ mutationFn: deleteRecord });
}
