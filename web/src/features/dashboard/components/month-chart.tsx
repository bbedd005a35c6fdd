import { makeStyles, tokens } from '@fluentui/react-components';
import type { DashboardAnswer } from '@receipts/core/contract/dashboard';
import { formatMoney } from '../../../lib/format';

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2024-04` as "Apr 2024" (or "Apr" when short). */
export function monthLabel(month: string, short = false): string {
  const name = MONTH_NAMES[Number(month.slice(5, 7)) - 1] ?? month;
  return short ? name : `${name} ${month.slice(0, 4)}`;
}

/** The currencies spent in over the months, most receipts first ('' stands for "no currency"). */
export function chartCurrencies(months: DashboardAnswer['months']): string[] {
  const seen = new Map<string, number>();
  for (const m of months) for (const c of Object.keys(m.totals)) seen.set(c, (seen.get(c) ?? 0) + m.receipts);
  return [...seen].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([c]) => c);
}

const useStyles = makeStyles({
  figure: { margin: 0, display: 'grid', gap: tokens.spacingVerticalS, minWidth: 0 },
  svg: { width: '100%', height: 'auto', display: 'block', overflow: 'visible' },
  bar: { fill: tokens.colorBrandBackground },
  current: { fill: tokens.colorNeutralForeground1 },
  axis: { stroke: tokens.colorNeutralStroke1, strokeWidth: 1 },
  label: { fill: tokens.colorNeutralForeground2, fontSize: '11px' },
  currentLabel: { fill: tokens.colorNeutralForeground1, fontSize: '11px', fontWeight: 700 },
  caption: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
  table: {
    borderCollapse: 'collapse',
    width: '100%',
    fontSize: tokens.fontSizeBase200,
    '& th, & td': {
      padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
      borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
      textAlign: 'left',
    },
    '& td.amount, & th.amount': { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
  },
});

const WIDTH = 480;
const HEIGHT = 180;
const BOTTOM = 22;
const TOP = 16;

/**
 * Spending per month in one currency as an SVG bar chart (the last bar, drawn darker and with a bold
 * label, is the current month). The image's label summarises it; the table beside it gives every figure.
 */
function CurrencyBars({ months, currency }: { months: DashboardAnswer['months']; currency: string }) {
  const styles = useStyles();
  const values = months.map((m) => m.totals[currency] ?? 0);
  const max = Math.max(...values, 0);
  const slot = WIDTH / months.length;
  const barWidth = slot * 0.64;
  const plot = HEIGHT - BOTTOM - TOP;
  const highest = values.indexOf(max);
  const name = currency || 'no currency';
  const summary =
    max > 0
      ? `Bar chart of spending per month in ${name}, ${monthLabel(months[0]!.month)} to ${monthLabel(
          months[months.length - 1]!.month,
        )}. Highest: ${monthLabel(months[highest]!.month)}, ${formatMoney(max)} ${currency}. This month: ${formatMoney(
          values[values.length - 1],
        )} ${currency}.`
      : `No spending in ${name} in the last ${months.length} months.`;
  return (
    <svg className={styles.svg} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary}>
      <line className={styles.axis} x1={0} x2={WIDTH} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} />
      {months.map((m, i) => {
        const value = values[i]!;
        const height = max > 0 ? Math.max(value > 0 ? 2 : 0, (value / max) * plot) : 0;
        const x = i * slot + (slot - barWidth) / 2;
        const isCurrent = i === months.length - 1;
        return (
          <g key={m.month}>
            <rect
              className={isCurrent ? styles.current : styles.bar}
              x={x}
              y={HEIGHT - BOTTOM - height}
              width={barWidth}
              height={height}
              rx={2}
            />
            <text
              className={isCurrent ? styles.currentLabel : styles.label}
              x={x + barWidth / 2}
              y={HEIGHT - 6}
              textAnchor="middle"
            >
              {monthLabel(m.month, true)}
            </text>
            {i === highest && max > 0 && (
              <text
                className={styles.label}
                x={x + barWidth / 2}
                y={HEIGHT - BOTTOM - height - 4}
                textAnchor="middle"
              >
                {formatMoney(value)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** The last 12 months as one bar chart per currency, with every figure in a table under "Show as a table". */
export function MonthChart({ months }: { months: DashboardAnswer['months'] }) {
  const styles = useStyles();
  const currencies = chartCurrencies(months);
  if (currencies.length === 0) return <p>No receipts in the last 12 months.</p>;
  return (
    <div className={styles.figure}>
      {currencies.map((currency) => (
        <figure key={currency} className={styles.figure}>
          <CurrencyBars months={months} currency={currency} />
          <figcaption className={styles.caption}>
            {currency || 'No currency'} per month; the darker last bar is this month.
          </figcaption>
        </figure>
      ))}
      <details>
        <summary>Show the months as a table</summary>
        <table className={styles.table}>
          <caption className="visually-hidden">Spending per month</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col" className="amount">
                Receipts
              </th>
              {currencies.map((c) => (
                <th key={c} scope="col" className="amount">
                  {c || 'No currency'}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {months.map((m) => (
              <tr key={m.month}>
                <th scope="row">{monthLabel(m.month)}</th>
                <td className="amount">{m.receipts}</td>
                {currencies.map((c) => (
                  <td key={c} className="amount">
                    {formatMoney(m.totals[c] ?? 0)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
