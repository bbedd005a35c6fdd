import type { ColumnDef, VisibilityState } from '@tanstack/react-table';
import { TABLE_PAGE_SIZE } from '@receipts/core/contract/routes';
import type { ReportRows, ReportTable } from '@receipts/core/contract/reports';
import { DataTable } from '../../../components/data-table';
import { PageError } from '../../../components/page';
import { errorMessage } from '../../../lib/api-client';
import { useReport, type ReportParams } from '../../../lib/reports';
import { SCREEN_PAGE, useTableUrl } from '../hooks/use-report-url';

export interface ServerTableProps<T extends ReportTable> {
  table: T;
  ariaLabel: string;
  // TanStack's column helpers produce ColumnDef<T, V> with varying V; the table accepts them all.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<ReportRows[T], any>[];
  getRowId: (row: ReportRows[T]) => string;
  emptyText: string;
  columnVisibility?: VisibilityState;
  /** Filters of this table only (e.g. the corporation of a corporation page). */
  extra?: ReportParams;
}

/**
 * A report table whose rows the server sorts, filters and pages (GET /api/report). Its order and
 * page live in the URL beside the page's filters; column ids are the server's sort columns.
 */
export function ServerTable<T extends ReportTable>({
  table,
  ariaLabel,
  columns,
  getRowId,
  emptyText,
  columnVisibility,
  extra,
}: ServerTableProps<T>) {
  const url = useTableUrl(table, { ...extra, ...SCREEN_PAGE });
  const query = useReport(table, url.params);
  const page = query.data;
  const pageSize = page?.pageSize ?? TABLE_PAGE_SIZE;
  return (
    <>
      {query.error && <PageError message={errorMessage(query.error)} />}
      <DataTable
        ariaLabel={ariaLabel}
        data={page?.rows ?? []}
        columns={columns}
        getRowId={getRowId}
        columnVisibility={columnVisibility}
        emptyText={query.isPending ? 'Loading…' : emptyText}
        remote={{
          sorting: url.sorting,
          onSortingChange: url.setSorting,
          pageNumber: page ? Math.floor(page.offset / pageSize) + 1 : 1,
          pageCount: page ? Math.ceil(page.count / pageSize) : 1,
          onPreviousPage:
            page?.previousPageToken !== null && page ? () => url.setPage(page.previousPageToken) : undefined,
          onNextPage: page?.nextPageToken ? () => url.setPage(page.nextPageToken) : undefined,
          totals: page?.totals ?? {},
          sums: page?.sums ?? {},
        }}
      />
    </>
  );
}
