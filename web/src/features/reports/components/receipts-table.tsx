import { createColumnHelper } from '@tanstack/react-table';
import { Link as RouterLink } from 'react-router';
import { Caption1, makeStyles, tokens } from '@fluentui/react-components';
import type { Receipt } from '@receipts/core/entities';
import { ReceiptThumbnail } from '../../../components/receipt-thumbnail';
import { BREAKPOINTS, useWindowWidth } from '../../../hooks/use-window-width';
import { formatMoney, orDash } from '../../../lib/format';
import { openColumn } from './open-link';
import { ServerTable } from './server-table';

const useStyles = makeStyles({
  failed: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
  merchant: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, minWidth: 0 },
  legend: { display: 'block', marginTop: tokens.spacingVerticalXS, color: tokens.colorNeutralForeground2 },
});

const column = createColumnHelper<Receipt>();

/**
 * The receipts table of spec §2: merchant, date, currency and category (wider than 900), region (wider
 * than 1200), total (red when the total check fails; with its currency code where the currency column
 * is hidden) and an open icon.
 */
export function ReceiptsTable() {
  const styles = useStyles();
  const width = useWindowWidth();
  const showCurrency = width > BREAKPOINTS.medium;
  const amount = (receipt: Receipt) =>
    showCurrency || !receipt.currency_code
      ? formatMoney(receipt.total_amount)
      : `${formatMoney(receipt.total_amount)} ${receipt.currency_code}`;

  const columns = [
    column.accessor('merchant_name', {
      id: 'merchant',
      header: 'Merchant',
      meta: { width: '30%' },
      cell: (info) => (
        <span className={styles.merchant}>
          <ReceiptThumbnail documentUrl={info.row.original.document_url} />
          <RouterLink to={`/Merchant?merchantId=${encodeURIComponent(info.row.original.merchant_id)}`}>
            {info.getValue() || 'Unknown Merchant'}
          </RouterLink>
        </span>
      ),
    }),
    column.accessor('transaction_date', {
      id: 'date',
      header: 'Date',
      meta: { width: '18%', nowrap: true },
      cell: (i) => orDash(i.getValue()),
    }),
    column.accessor('currency_code', {
      id: 'currency',
      header: 'Currency',
      meta: { width: '11%' },
      cell: (i) => orDash(i.getValue()),
    }),
    column.accessor('receipt_type', {
      id: 'category',
      header: 'Category',
      meta: { width: '14%' },
      cell: (i) => orDash(i.getValue()),
    }),
    column.accessor('country_region', {
      id: 'region',
      header: 'Region',
      meta: { width: '10%' },
      cell: (i) => orDash(i.getValue()),
    }),
    column.accessor('total_amount', {
      id: 'total',
      header: 'Total',
      meta: { width: '17%', numeric: true, total: 'money' },
      cell: (info) =>
        info.row.original.total_checks_out ? (
          amount(info.row.original)
        ) : (
          <span className={styles.failed} title="The items do not add up to this total">
            {amount(info.row.original)}
            <span className="visually-hidden"> (does not add up)</span>
          </span>
        ),
    }),
    openColumn<Receipt>((receipt) => ({
      to: `/Receipt?receiptId=${encodeURIComponent(receipt.receipt_id)}`,
      label: `Open receipt from ${receipt.merchant_name || 'Unknown Merchant'} on ${receipt.transaction_date ?? 'unknown date'}`,
    })),
  ];

  return (
    <>
      <ServerTable
        table="receipts"
        ariaLabel="Receipts"
        columns={columns}
        getRowId={(r) => r.receipt_id}
        columnVisibility={{
          currency: showCurrency,
          category: showCurrency,
          region: width > BREAKPOINTS.wide,
        }}
        emptyText="No receipts found. Scan one with the camera icon, or change the filter."
      />
      <Caption1 className={styles.legend}>
        <span className={styles.failed}>A total in red</span> does not match the receipt&apos;s items: open
        the receipt to check it.
      </Caption1>
    </>
  );
}
