import { useMemo } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { Subtitle1, makeStyles, tokens } from '@fluentui/react-components';
import type { ReportItem } from '@receipts/core/entities';
import { DataTable } from '../../../components/data-table';
import { Page, PageError, PageLoading } from '../../../components/page';
import { errorMessage } from '../../../lib/api-client';
import { useAppData } from '../../../lib/app-data';
import { formatMoney, orDash } from '../../../lib/format';
import { useAppState } from '../../../stores/app-state';

const useStyles = makeStyles({
  section: { display: 'grid', gap: tokens.spacingVerticalS, minWidth: 0 },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'max-content 1fr',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXXS,
    margin: 0,
  },
  term: { color: tokens.colorNeutralForeground3 },
  value: { margin: 0, overflowWrap: 'anywhere' },
});

const column = createColumnHelper<ReportItem>();
const columns = [
  column.accessor('description', { header: 'Description', meta: { width: '45%' } }),
  column.accessor('merchant_name', {
    header: 'Merchant',
    meta: { width: '30%' },
    cell: (i) => orDash(i.getValue()),
  }),
  column.accessor('unit_price', {
    header: 'Unit Price',
    meta: { width: '25%', numeric: true },
    cell: (i) => formatMoney(i.getValue() ?? i.row.original.total_price),
  }),
];

/** The product item page (spec §2): the item's description, brand and corporation, and its brand's items. */
export function ProductItemPage() {
  const styles = useStyles();
  const [params] = useSearchParams();
  const itemId = params.get('itemId') ?? '';
  const { signedIn } = useAppState();
  const data = useAppData();
  const item = useMemo(
    () => data.data?.reportProductItems.find((i) => i.item_id === itemId) ?? null,
    [data.data, itemId],
  );
  const sameBrand = useMemo(
    () =>
      item?.brand && data.data
        ? data.data.reportProductItems.filter((i) => i.brand === item.brand)
        : item
          ? [item]
          : [],
    [data.data, item],
  );
  const corporation = item?.brand
    ? data.data?.brands.find((b) => b.name === item.brand)?.owning_corporation
    : null;

  if (!signedIn) return <Navigate to="/Login" replace />;
  return (
    <Page title="Product item">
      {data.isPending && <PageLoading label="Loading the item" />}
      {data.isError && <PageError message={errorMessage(data.error)} />}
      {data.isSuccess && !item && <p>Product item not found.</p>}
      {item && (
        <>
          <dl className={styles.facts}>
            <dt className={styles.term}>Description</dt>
            <dd className={styles.value}>{item.description}</dd>
            <dt className={styles.term}>Brand</dt>
            <dd className={styles.value}>{orDash(item.brand)}</dd>
            <dt className={styles.term}>Corporation</dt>
            <dd className={styles.value}>{orDash(corporation)}</dd>
          </dl>
          <section className={styles.section} aria-labelledby="same-brand">
            <Subtitle1 as="h2" id="same-brand">
              {item.brand ? `Items of ${item.brand}` : 'This item'}
            </Subtitle1>
            <DataTable
              ariaLabel="Items of the same brand"
              data={sameBrand}
              columns={columns}
              getRowId={(i) => i.item_id}
            />
          </section>
        </>
      )}
    </Page>
  );
}
