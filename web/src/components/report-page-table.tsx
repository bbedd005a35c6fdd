import { useState } from 'react';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { TABLE_PAGE_SIZE } from '@receipts/core/contract/routes';
import { REPORT_DEFAULT_SORT, type ReportRows, type ReportTable } from '@receipts/core/contract/reports';
import { errorMessage } from '../lib/api-client';
import { useReport, type ReportParams } from '../lib/reports';
import { DataTable } from './data-table';
import { PageError } from './page';

export interface ReportPageTableProps<T extends ReportTable> {
  table: T;
  /** The report filters that pick the rows, e.g. `{ merchant: id }` for a merchant's receipts. */
  filters: ReportParams;
  ariaLabel: string;
  // TanStack's column helpers produce ColumnDef<T, V> with varying V; the table accepts them all.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<ReportRows[T], any>[];
  getRowId: (row: ReportRows[T]) => string;
  emptyText: string;
}

/**
 * A table of a detail screen (a merchant's receipts, a brand's items) whose rows the server sorts,
 * pages and totals (GET /api/report), so the screen loads one page however many rows there are. Its
 * order and page are the screen's own state; column ids are the server's sort columns (columns with
 * `enableSorting: false` have none).
 */
export function ReportPageTable<T extends ReportTable>({
  table,
  filters,
  ariaLabel,
  columns,
  getRowId,
  emptyText,
}: ReportPageTableProps<T>) {
  const fallback = REPORT_DEFAULT_SORT[table];
  const [sorting, setSorting] = useState<SortingState>([
    { id: fallback.sort, desc: fallback.dir === 'desc' },
  ]);
  const filterKey = JSON.stringify(filters);
  // A page token belongs to one filter and order: another merchant or brand starts at the first page.
  const [page, setPage] = useState<{ key: string; token: string | null }>({ key: '', token: null });
  const order = sorting[0] ?? { id: fallback.sort, desc: fallback.dir === 'desc' };
  const key = `${filterKey}|${order.id}|${order.desc ? 'desc' : 'asc'}`;
  const pageToken = page.key === key ? page.token : null;
  const query = useReport(table, {
    ...filters,
    sort: order.id,
    dir: order.desc ? 'desc' : 'asc',
    pageSize: String(TABLE_PAGE_SIZE),
    pageToken: pageToken ?? undefined,
  });
  const answer = query.data;
  const pageSize = answer?.pageSize ?? TABLE_PAGE_SIZE;
  return (
    <>
      {query.error && <PageError message={errorMessage(query.error)} />}
      <DataTable
        ariaLabel={ariaLabel}
        data={answer?.rows ?? []}
        columns={columns}
        getRowId={getRowId}
        emptyText={query.isPending ? 'Loading…' : emptyText}
        remote={{
          sorting: [order],
          onSortingChange: (next) => {
            if (next[0]) setSorting([next[0]]);
          },
          pageNumber: answer ? Math.floor(answer.offset / pageSize) + 1 : 1,
          pageCount: answer ? Math.ceil(answer.count / pageSize) : 1,
          onPreviousPage:
            answer && answer.previousPageToken !== null
              ? () => setPage({ key, token: answer.previousPageToken })
              : undefined,
          onNextPage: answer?.nextPageToken ? () => setPage({ key, token: answer.nextPageToken }) : undefined,
          totals: answer?.totals ?? {},
          sums: answer?.sums ?? {},
        }}
      />
    </>
  );
}
