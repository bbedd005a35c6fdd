import { Subtitle1, makeStyles, tokens } from '@fluentui/react-components';
import type { ReportMerchant } from '@receipts/core/entities';
import { formatMoney, orDash } from '../lib/format';
import { FactList } from './fact-list';
import type { CurrencyTotal } from '../lib/totals';

const useStyles = makeStyles({
  card: {
    display: 'grid',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground2,
  },
});

export interface MerchantSummaryProps {
  merchant: ReportMerchant | null;
  /** The merchant's total, per currency (one line each); the first receipt's currency when there is one. */
  totals: CurrencyTotal[];
}

/** The merchant summary of spec §2 (shown on the merchant and receipt screens). */
export function MerchantSummary({ merchant, totals }: MerchantSummaryProps) {
  const styles = useStyles();
  const rows: [string, string][] = [
    ['Street Address', orDash(merchant?.street_address)],
    ['City', orDash(merchant?.city)],
    ['Postal Code', orDash(merchant?.postal_code)],
    ['Region', orDash(merchant?.merchant_region)],
    ['Phone Number', orDash(merchant?.phone_number)],
    [
      'Total Amount',
      totals.length === 0
        ? formatMoney(merchant?.merchant_total_amount ?? 0)
        : totals.map((t) => `${formatMoney(t.amount)}${t.currency ? ` ${t.currency}` : ''}`).join(' + '),
    ],
    ['First Visit', orDash(merchant?.merchant_first_visit)],
    ['Last Visit', orDash(merchant?.merchant_last_visit)],
  ];
  return (
    <section className={styles.card} aria-label="Merchant summary">
      <Subtitle1 as="h2">{merchant?.name || 'Unknown Merchant'}</Subtitle1>
      <FactList facts={rows} wrapAnywhere />
    </section>
  );
}
