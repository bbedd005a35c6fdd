import { useState, type ReactNode } from 'react';
import {
  flexRender,
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type RowData,
  type SortingState,
  type VisibilityState,
} from '@tanstack/react-table';
import {
  Button,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { ChevronLeft20Regular } from '@fluentui/react-icons/svg/chevron-left';
import { ChevronRight20Regular } from '@fluentui/react-icons/svg/chevron-right';
import { TABLE_PAGE_SIZE } from '@receipts/core/contract/routes';
import { formatMoney, formatQuantity } from '../../lib/format';
import { plainTotal, totalsByCurrency } from '../../lib/totals';

declare module '@tanstack/react-table' {
  // Declaration merging must repeat TanStack's own type parameters, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** CSS width of the column, e.g. '53%'. */
    width?: string;
    /** Right-aligned figures, kept on one line. */
    numeric?: boolean;
    /** Kept on one line (dates, times). */
    nowrap?: boolean;
    /** What the footer shows: a per-currency money total, or a plain sum of counts. */
    total?: 'money' | 'count';
    /** Amounts per currency of one row, for rows that mix currencies (brands); else the row's value and currency. */
    amounts?: (row: TData) => Record<string, number>;
  }
}

const useStyles = makeStyles({
  wrapper: { width: '100%', overflowX: 'auto' },
  // Column widths are hints: on a phone, content such as a date keeps its line and text columns give way.
  table: { minWidth: '0', tableLayout: 'auto' },
  numeric: { textAlign: 'end', justifyContent: 'flex-end', whiteSpace: 'nowrap' },
  numericHeader: { justifyContent: 'flex-end', textAlign: 'end' },
  nowrap: { whiteSpace: 'nowrap' },
  footerRow: {
    fontWeight: tokens.fontWeightSemibold,
    borderTop: `${tokens.strokeWidthThick} solid ${tokens.colorNeutralStroke1}`,
  },
  totalLine: { display: 'block', whiteSpace: 'nowrap' },
  pager: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'flex-end',
    gap: tokens.spacingHorizontalS,
    paddingTop: tokens.spacingVerticalXS,
  },
  empty: { color: tokens.colorNeutralForeground3, padding: tokens.spacingVerticalM },
});

export interface DataTableProps<T> {
  /** Names the table for screen readers. */
  ariaLabel: string;
  data: T[];
  // TanStack's column helpers produce ColumnDef<T, V> with varying V; the table accepts them all.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  /** Currency of a row, for money totals. Rows without one are totalled apart. */
  currencyOf?: (row: T) => string | null | undefined;
  initialSorting?: SortingState;
  /** Columns hidden (false) at the current window width. */
  columnVisibility?: VisibilityState;
  getRowId?: (row: T, index: number) => string;
  /** Shown in place of rows when there are none. */
  emptyText?: string;
  /** Rows per page (spec §9: 5). */
  pageSize?: number;
  /**
   * Set when the server sorts, pages and totals (the report tables): `data` is the page shown, and
   * the header clicks, page buttons and footer use this instead of the rows at hand.
   */
  remote?: RemoteTableState;
}

/** Sorting, paging and totals of a table whose rows the server sorts and pages. */
export interface RemoteTableState {
  sorting: SortingState;
  onSortingChange: (sorting: SortingState) => void;
  /** 1-based page shown and the number of pages. */
  pageNumber: number;
  pageCount: number;
  onPreviousPage?: (() => void) | undefined;
  onNextPage?: (() => void) | undefined;
  /** Money over every row under the filter, per currency ('' for amounts without one). */
  totals: Record<string, number>;
  /** Counts over every row under the filter, by column id. */
  sums: Record<string, number>;
}

/**
 * The product's table: headers sort ascending/descending on click, 5 rows per page with an 'N of M'
 * indicator, and a footer row with totals (money totals kept apart per currency).
 */
export function DataTable<T>({
  ariaLabel,
  data,
  columns,
  currencyOf,
  initialSorting = [],
  columnVisibility,
  getRowId,
  emptyText = 'Nothing to show yet.',
  pageSize = TABLE_PAGE_SIZE,
  remote,
}: DataTableProps<T>) {
  const styles = useStyles();
  const [localSorting, setSorting] = useState<SortingState>(initialSorting);
  const sorting = remote ? remote.sorting : localSorting;
  const [pagination, setPagination] = useState({ pageIndex: 0, pageSize });
  // The page is kept when the data changes (a scan finishing reloads it); when rows go, the last page
  // that still exists is shown.
  const lastPageIndex = Math.max(Math.ceil(data.length / pagination.pageSize) - 1, 0);
  const page = remote
    ? { pageIndex: 0, pageSize: Math.max(data.length, 1) }
    : { ...pagination, pageIndex: Math.min(pagination.pageIndex, lastPageIndex) };

  // TanStack Table returns functions that the React Compiler must not memoise.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data,
    columns,
    state: { sorting, pagination: page, columnVisibility: columnVisibility ?? {} },
    onSortingChange: (update) => {
      if (!remote) return setSorting(update);
      remote.onSortingChange(typeof update === 'function' ? update(remote.sorting) : update);
    },
    manualSorting: Boolean(remote),
    manualPagination: Boolean(remote),
    // Page moves start from the page shown, not from one that no longer exists.
    onPaginationChange: (update) => setPagination(typeof update === 'function' ? update(page) : update),
    autoResetPageIndex: false,
    enableSortingRemoval: false,
    // Every column starts ascending, numbers included, then toggles.
    sortDescFirst: false,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
  });

  const visibleColumns = table.getVisibleLeafColumns();
  const hasTotals = visibleColumns.some((c) => c.columnDef.meta?.total);
  const footer = !hasTotals
    ? null
    : visibleColumns.map((column, index) => {
        const meta = column.columnDef.meta;
        let content: ReactNode = index === 0 ? 'Total' : '';
        if (meta?.total === 'count') {
          content = formatQuantity(
            remote
              ? (remote.sums[column.id] ?? 0)
              : plainTotal(data.map((row, i) => column.accessorFn?.(row, i) as number)),
          );
        } else if (meta?.total === 'money') {
          const totals = remote
            ? Object.entries(remote.totals).map(([currency, amount]) => ({
                currency: currency || null,
                amount,
              }))
            : totalsByCurrency(
                data.map((row, i) =>
                  meta.amounts
                    ? meta.amounts(row)
                    : { [currencyOf?.(row) ?? '']: column.accessorFn?.(row, i) as number | null },
                ),
              );
          content =
            totals.length === 0
              ? formatMoney(0)
              : totals.map((t) => (
                  <span key={t.currency ?? ''} className={styles.totalLine} data-testid="currency-total">
                    {formatMoney(t.amount)}
                    {t.currency ? ` ${t.currency}` : ''}
                  </span>
                ));
        }
        return { id: column.id, content, numeric: meta?.numeric ?? false };
      });

  const pageCount = remote ? Math.max(remote.pageCount, 1) : Math.max(table.getPageCount(), 1);
  const pageNumber = remote ? remote.pageNumber : Math.min(page.pageIndex + 1, pageCount);
  const canPrevious = remote ? Boolean(remote.onPreviousPage) : table.getCanPreviousPage();
  const canNext = remote ? Boolean(remote.onNextPage) : table.getCanNextPage();

  return (
    <div className={styles.wrapper}>
      <Table aria-label={ariaLabel} sortable size="small" className={styles.table}>
        <TableHeader>
          {table.getHeaderGroups().map((group) => (
            <TableRow key={group.id}>
              {group.headers.map((header) => {
                const meta = header.column.columnDef.meta;
                const canSort = header.column.getCanSort();
                const direction = header.column.getIsSorted();
                return (
                  <TableHeaderCell
                    key={header.id}
                    style={meta?.width ? { width: meta.width } : undefined}
                    sortable={canSort}
                    sortDirection={
                      direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined
                    }
                    onClick={canSort ? header.column.getToggleSortingHandler() : undefined}
                    className={meta?.numeric ? styles.numeric : undefined}
                    button={meta?.numeric ? { className: styles.numericHeader } : undefined}
                  >
                    {header.isPlaceholder
                      ? null
                      : flexRender(header.column.columnDef.header, header.getContext())}
                  </TableHeaderCell>
                );
              })}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody>
          {table.getRowModel().rows.map((row) => (
            <TableRow key={row.id}>
              {row.getVisibleCells().map((cell) => (
                <TableCell
                  key={cell.id}
                  className={mergeClasses(
                    cell.column.columnDef.meta?.numeric && styles.numeric,
                    cell.column.columnDef.meta?.nowrap && styles.nowrap,
                  )}
                >
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </TableCell>
              ))}
            </TableRow>
          ))}
          {data.length === 0 && (
            <TableRow>
              <TableCell colSpan={visibleColumns.length}>
                <Text className={styles.empty}>{emptyText}</Text>
              </TableCell>
            </TableRow>
          )}
        </TableBody>
        {footer && (
          <tfoot>
            <TableRow className={styles.footerRow} aria-label="Total row">
              {footer.map((cell) => (
                <TableCell key={cell.id} className={mergeClasses(cell.numeric && styles.numeric)}>
                  {cell.content}
                </TableCell>
              ))}
            </TableRow>
          </tfoot>
        )}
      </Table>
      <nav className={styles.pager} aria-label={`${ariaLabel} pages`}>
        <Button
          appearance="subtle"
          icon={<ChevronLeft20Regular />}
          aria-label="Previous page"
          disabled={!canPrevious}
          onClick={() => (remote ? remote.onPreviousPage?.() : table.previousPage())}
        />
        <Text aria-live="polite">
          {pageNumber} of {pageCount}
        </Text>
        <Button
          appearance="subtle"
          icon={<ChevronRight20Regular />}
          aria-label="Next page"
          disabled={!canNext}
          onClick={() => (remote ? remote.onNextPage?.() : table.nextPage())}
        />
      </nav>
    </div>
  );
}
