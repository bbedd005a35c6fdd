import { Link as RouterLink, useSearchParams } from 'react-router';
import {
  Button,
  Card,
  Field,
  Input,
  Radio,
  RadioGroup,
  Subtitle1,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Camera24Regular } from '@fluentui/react-icons/svg/camera';
import { ArrowUpload24Regular } from '@fluentui/react-icons/svg/arrow-upload';
import { ChevronLeft24Regular } from '@fluentui/react-icons/svg/chevron-left';
import { ChevronRight24Regular } from '@fluentui/react-icons/svg/chevron-right';
import {
  DASHBOARD_PERIODS,
  type DashboardAnswer,
  type DashboardPeriod,
  type DashboardTopEntry,
} from '@receipts/core/contract/dashboard';
import { Suspense, lazy, type ReactNode } from 'react';
import { PageDataStatus, PageSection } from '../../../components/page';
import { useNow } from '../../../hooks/use-now';
import { formatMoney, orDash } from '../../../lib/format';
import { queueCounts } from '../../../lib/queue';
import { useAppState } from '../../../stores/app-state';
import { localToday, useDashboard } from '../api/get-dashboard';
import { MonthChart } from './month-chart';

// Loaded after the first page: the pictures are not needed to read Home.
const ReceiptThumbnail = lazy(() =>
  import('../../../components/receipt-thumbnail').then((m) => ({ default: m.ReceiptThumbnail })),
);

const PERIOD_WORDS: Record<DashboardPeriod, { label: string; current: string; previous: string }> = {
  month: { label: 'Month', current: 'This month', previous: 'last month' },
  quarter: { label: 'Quarter', current: 'This quarter', previous: 'last quarter' },
  year: { label: 'Year', current: 'This year', previous: 'last year' },
};

const isPeriod = (value: string | null): value is DashboardPeriod =>
  (DASHBOARD_PERIODS as readonly string[]).includes(value ?? '');

/** How a period is named: "March 2024", "Q1 2024", "2024". */
function periodName(period: DashboardPeriod, from: string): string {
  const [year, month] = [Number(from.slice(0, 4)), Number(from.slice(5, 7))];
  if (period === 'year') return String(year);
  if (period === 'quarter') return `Q${Math.ceil(month / 3)} ${year}`;
  return new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(year, month - 1, 1),
  );
}

/** The words for the period shown: "This month" and "last month", or "March 2024" and "the month before". */
function wordsOf(data: Pick<DashboardAnswer, 'period' | 'current' | 'isCurrent'>) {
  const words = PERIOD_WORDS[data.period];
  if (data.isCurrent)
    return { title: words.current, when: words.current.toLowerCase(), previous: words.previous };
  const name = periodName(data.period, data.current.from);
  return { title: name, when: `in ${name}`, previous: `the ${data.period} before` };
}

/** The day after `day` (`YYYY-MM-DD`). */
function dayAfter(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + 1)).toISOString().slice(0, 10);
}

const isDay = (value: string | null): value is string => /^\d{4}-\d{2}-\d{2}$/.test(value ?? '');

const useStyles = makeStyles({
  page: {
    display: 'grid',
    gap: tokens.spacingVerticalL,
    padding: `${tokens.spacingVerticalL} ${tokens.spacingHorizontalM} 96px`,
    maxWidth: '1200px',
    marginInline: 'auto',
    boxSizing: 'border-box',
    width: '100%',
    minWidth: 0,
  },
  header: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  title: { flexGrow: 1, margin: 0 },
  periods: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    minWidth: 0,
  },
  actions: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: tokens.spacingHorizontalM },
  action: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingHorizontalS,
    minHeight: '56px',
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusLarge,
    fontSize: tokens.fontSizeBase400,
    fontWeight: tokens.fontWeightSemibold,
    textDecoration: 'none',
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  primary: {
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    ':hover': { backgroundColor: tokens.colorBrandBackgroundHover },
  },
  secondary: {
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorBrandForeground1,
    border: `1px solid ${tokens.colorBrandStroke1}`,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  grid: {
    display: 'grid',
    gap: tokens.spacingVerticalL,
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 320px), 1fr))',
    alignItems: 'start',
  },
  card: { minWidth: 0 },
  figures: { display: 'grid', gap: tokens.spacingVerticalS, margin: 0 },
  figure: { display: 'grid', gap: tokens.spacingVerticalXXS },
  amount: { fontSize: tokens.fontSizeHero700, fontWeight: tokens.fontWeightSemibold, lineHeight: 1.1 },
  muted: { color: tokens.colorNeutralForeground2 },
  // One column no wider than the card: a long name is shortened rather than pushing the amount out.
  list: {
    margin: 0,
    paddingInlineStart: '1.4em',
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: tokens.spacingVerticalXS,
  },
  row: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
    minWidth: 0,
  },
  name: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0, flexGrow: 1 },
  thumb: { width: '40px', height: '40px', flexShrink: 0 },
  // The amount never gives way: the name before it is shortened with an ellipsis instead.
  money: { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', flexShrink: 0 },
  track: {
    height: '8px',
    borderRadius: tokens.borderRadiusSmall,
    backgroundColor: tokens.colorNeutralBackground3,
    overflow: 'hidden',
  },
  fill: { height: '100%', backgroundColor: tokens.colorBrandBackground },
  status: { display: 'flex', gap: tokens.spacingHorizontalL, flexWrap: 'wrap' },
  welcome: { display: 'grid', gap: tokens.spacingVerticalM, padding: tokens.spacingVerticalL },
});

/** Money as "12.50 EUR" (amounts without a known currency carry none). */
const money = (amount: number, currency: string | null) =>
  `${formatMoney(amount)}${currency ? ` ${currency}` : ''}`;

/** Sums per currency as "5.50 EUR · 3.60 GBP". */
const moneyList = (totals: Record<string, number>) =>
  Object.entries(totals)
    .map(([c, n]) => money(n, c || null))
    .join(' · ');

/** The change against the previous period in words (never only a colour or an arrow). */
function changeText(
  current: number,
  previous: number,
  previousWord: string,
  currency: string | null,
): string {
  if (previous === 0)
    return current === 0 ? `Nothing spent, as ${previousWord}.` : `Nothing spent ${previousWord}.`;
  const difference = current - previous;
  const percent = Math.round((Math.abs(difference) / previous) * 100);
  if (Math.abs(difference) < 0.005) return `The same as ${previousWord}.`;
  return `${money(Math.abs(difference), currency)} ${difference > 0 ? 'more' : 'less'} than ${previousWord} (${money(
    previous,
    currency,
  )}, ${difference > 0 ? '+' : '−'}${percent}%).`;
}

function CaptureButtons() {
  const styles = useStyles();
  return (
    <nav aria-label="Add a receipt" className={styles.actions}>
      <RouterLink to="/Camera?p=Camera" className={`${styles.action} ${styles.primary}`}>
        <Camera24Regular aria-hidden />
        Scan a receipt
      </RouterLink>
      <RouterLink to="/Camera?p=Upload" className={`${styles.action} ${styles.secondary}`}>
        <ArrowUpload24Regular aria-hidden />
        Upload
      </RouterLink>
    </nav>
  );
}

function PendingScans({ needsReview = 0 }: { needsReview?: number }) {
  const styles = useStyles();
  const { scanning } = useAppState();
  const { inProgress, needsAttention } = queueCounts(scanning, useNow());
  return (
    <div className={styles.status}>
      <RouterLink to="/ReceiptImages">
        {inProgress === 1 ? '1 scan pending' : `${inProgress} scans pending`}
      </RouterLink>
      {needsAttention > 0 && (
        <RouterLink to="/ReceiptImages">
          {needsAttention === 1 ? '1 scan needs attention' : `${needsAttention} scans need attention`}
        </RouterLink>
      )}
      {needsReview > 0 && (
        <RouterLink to="/Review">
          {needsReview === 1 ? '1 receipt needs review' : `${needsReview} receipts need review`}
        </RouterLink>
      )}
    </div>
  );
}

function DashboardCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  const styles = useStyles();
  return (
    <Card className={styles.card}>
      <PageSection id={id} title={title}>
        {children}
      </PageSection>
    </Card>
  );
}

function TopList({
  entries,
  linkOf,
  empty,
}: {
  entries: DashboardTopEntry[];
  linkOf: (e: DashboardTopEntry) => string;
  empty: string;
}) {
  const styles = useStyles();
  if (entries.length === 0) return <Text className={styles.muted}>{empty}</Text>;
  return (
    <ol className={styles.list}>
      {entries.map((e) => (
        <li key={e.id}>
          <span className={styles.row}>
            <RouterLink to={linkOf(e)} className={styles.name}>
              {e.name}
            </RouterLink>
            {!e.through_shops && <span className={styles.money}>{money(e.total, e.currency_code)}</span>}
          </span>
          {/* A corporation that owns shops: its brands and its shops apart, never added together. */}
          {e.through_shops && e.count > 0 && (
            <Amount
              label={`Its brands (${counted(e.count, 'item')})`}
              value={money(e.total, e.currency_code)}
            />
          )}
          {e.through_shops && (
            <Amount
              label={`At its shops (${counted(e.through_shops.count, 'visit')})`}
              value={money(e.through_shops.total, e.through_shops.currency_code)}
            />
          )}
        </li>
      ))}
    </ol>
  );
}

const counted = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function Amount({ label, value }: { label: string; value: string }) {
  const styles = useStyles();
  return (
    <span className={styles.row}>
      <span className={`${styles.name} ${styles.muted}`}>{label}</span>
      <span className={styles.money}>{value}</span>
    </span>
  );
}

function Categories({ categories }: { categories: DashboardAnswer['categories'] }) {
  const styles = useStyles();
  if (categories.length === 0) return <Text className={styles.muted}>No receipts in this period.</Text>;
  const largest = (t: Record<string, number>) => Math.max(0, ...Object.values(t));
  const max = Math.max(...categories.map((c) => largest(c.totals)), 0);
  return (
    <ul className={styles.list} style={{ listStyleType: 'none', paddingInlineStart: 0 }}>
      {categories.map((c) => (
        <li key={c.category ?? ''} className={styles.figure}>
          <span className={styles.row}>
            <span className={styles.name}>
              {c.category ? c.category.charAt(0).toUpperCase() + c.category.slice(1) : 'No category'} (
              {c.receipts === 1 ? '1 receipt' : `${c.receipts} receipts`})
            </span>
            <span className={styles.money}>{moneyList(c.totals)}</span>
          </span>
          {/* The bar repeats the figure beside it for the eye; the text carries the meaning. */}
          <span className={styles.track} aria-hidden>
            <span
              className={styles.fill}
              style={{ display: 'block', width: `${max > 0 ? (largest(c.totals) / max) * 100 : 0}%` }}
            />
          </span>
        </li>
      ))}
    </ul>
  );
}

function Spending({ data }: { data: DashboardAnswer }) {
  const styles = useStyles();
  const words = wordsOf(data);
  if (data.spending.length === 0)
    return (
      <Text className={styles.muted}>
        No receipts dated {words.when} or {words.previous}.
      </Text>
    );
  return (
    <dl className={styles.figures}>
      {data.spending.map((s) => (
        <div key={s.currency ?? ''} className={styles.figure}>
          <dt className={styles.muted}>
            {words.title} in {s.currency ?? 'no currency'} (
            {s.receipts === 1 ? '1 receipt' : `${s.receipts} receipts`})
          </dt>
          <dd style={{ margin: 0 }}>
            <span className={styles.amount}>{money(s.current, s.currency)}</span>
            <br />
            <Text>{changeText(s.current, s.previous, words.previous, s.currency)}</Text>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The first-step card of an account without receipts: what to do instead of empty charts. */
function Welcome() {
  const styles = useStyles();
  return (
    <Card className={styles.welcome}>
      <Subtitle1 as="h2">Scan your first receipt</Subtitle1>
      <Text>
        Take a photo of a shop receipt or upload a picture or PDF of one. It is read in the background, and
        here you will then see what you spend each month, where and on which brands.
      </Text>
      <CaptureButtons />
      <PendingScans />
    </Card>
  );
}

/**
 * The signed-in Home: spending against the previous period per currency, 12 months as a chart (with a
 * table), top merchants, brands and corporations, categories, the latest receipts, pending scans, and
 * the capture buttons. The period is in the URL (`?period=quarter`).
 */
export function Dashboard() {
  const styles = useStyles();
  const [params, setParams] = useSearchParams();
  const requested = params.get('period');
  const period: DashboardPeriod = isPeriod(requested) ? requested : 'month';
  // An earlier period: any day of it (`?at=2024-03-01`); without it, the one holding today.
  const at = params.get('at');
  const query = useDashboard(period, isDay(at) ? at : undefined);
  const data = query.data;
  const words = data ? wordsOf(data) : { title: PERIOD_WORDS[period].current };
  const showAt = (day: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (day) next.set('at', day);
        else next.delete('at');
        return next;
      },
      { replace: true },
    );
  const thisMonth = localToday().slice(0, 7);
  const periodWord = PERIOD_WORDS[period].label.toLowerCase();
  const periodNav = data && (
    <nav aria-label="Periods" className={styles.periods}>
      <Button
        icon={<ChevronLeft24Regular />}
        aria-label={`Previous ${periodWord}`}
        title={`Previous ${periodWord}`}
        onClick={() => showAt(data.previous.from)}
      />
      <Text weight="semibold" aria-live="polite">
        {periodName(data.period, data.current.from)}
      </Text>
      <Button
        icon={<ChevronRight24Regular />}
        aria-label={`Next ${periodWord}`}
        title={`Next ${periodWord}`}
        disabled={data.isCurrent}
        onClick={() => {
          const next = dayAfter(data.current.to);
          // The period holding today is Home's own: no `at` in its address.
          showAt(next.slice(0, 7) >= thisMonth || next > localToday() ? null : next);
        }}
      />
      <Field label="Go to month" orientation="horizontal">
        <Input
          type="month"
          max={thisMonth}
          value={(at && isDay(at) ? at : data.current.from).slice(0, 7)}
          onChange={(_, { value }) => {
            if (/^\d{4}-\d{2}$/.test(value)) showAt(value >= thisMonth ? null : `${value}-01`);
          }}
        />
      </Field>
      {!data.isCurrent && (
        <Button appearance="subtle" onClick={() => showAt(null)}>
          Back to this {periodWord}
        </Button>
      )}
    </nav>
  );

  const periodSwitch = (
    <RadioGroup
      layout="horizontal"
      aria-label="Period"
      value={period}
      onChange={(_, { value }) =>
        setParams(
          (current) => {
            const next = new URLSearchParams(current);
            if (value === 'month') next.delete('period');
            else next.set('period', value);
            return next;
          },
          { replace: true },
        )
      }
    >
      {DASHBOARD_PERIODS.map((p) => (
        <Radio key={p} value={p} label={PERIOD_WORDS[p].label} />
      ))}
    </RadioGroup>
  );

  return (
    <main className={styles.page}>
      <div className={styles.header}>
        <Title2 as="h1" className={styles.title}>
          Home
        </Title2>
        {data && data.receiptCount > 0 && periodSwitch}
      </div>
      {data && data.receiptCount > 0 && periodNav}
      {!data && <PageDataStatus query={query} loadingLabel="Loading your figures" />}
      {data && data.receiptCount === 0 && <Welcome />}
      {data && data.receiptCount > 0 && (
        <>
          <CaptureButtons />
          <PendingScans needsReview={data.needsReview} />
          <div className={styles.grid} aria-busy={query.isPlaceholderData}>
            <DashboardCard
              id="home-spending"
              title={data.isCurrent ? `Spending ${words.title.toLowerCase()}` : `Spending in ${words.title}`}
            >
              <Spending data={data} />
              <Text size={200} className={styles.muted}>
                {data.current.from} to {data.current.to}
              </Text>
            </DashboardCard>
            <DashboardCard id="home-months" title="Last 12 months">
              <MonthChart months={data.months} />
            </DashboardCard>
            <DashboardCard id="home-categories" title="By category">
              <Categories categories={data.categories} />
            </DashboardCard>
            <DashboardCard id="home-merchants" title="Top merchants">
              <TopList
                entries={data.topMerchants}
                linkOf={(e) => `/Merchant?merchantId=${encodeURIComponent(e.id)}`}
                empty="No merchants in this period."
              />
            </DashboardCard>
            <DashboardCard id="home-brands" title="Top brands">
              <TopList
                entries={data.topBrands}
                linkOf={(e) => `/Brand?brandId=${encodeURIComponent(e.id)}`}
                empty="No branded items in this period."
              />
            </DashboardCard>
            <DashboardCard id="home-corporations" title="Top corporations">
              <TopList
                entries={data.topCorporations}
                linkOf={(e) => `/Corporation?name=${encodeURIComponent(e.id)}`}
                empty="No known owners of brands in this period."
              />
              {data.topCorporations.some((e) => e.through_shops) && (
                <Text size={200} className={styles.muted}>
                  Its brands: what their items cost you, wherever you bought them. At its shops: your receipts
                  at the shops it owns. An item can be in both, so the two are not added.
                </Text>
              )}
            </DashboardCard>
            <DashboardCard id="home-latest" title="Latest receipts">
              <ol className={styles.list}>
                {data.latestReceipts.map((r) => (
                  <li key={r.receipt_id}>
                    <span className={styles.row}>
                      <Suspense fallback={<span className={styles.thumb} />}>
                        <ReceiptThumbnail documentUrl={r.document_url} />
                      </Suspense>
                      <RouterLink
                        to={`/Receipt?receiptId=${encodeURIComponent(r.receipt_id)}`}
                        className={styles.name}
                      >
                        {r.merchant_name}, {orDash(r.transaction_date)}
                      </RouterLink>
                      <span className={styles.money}>
                        {r.total_amount === null ? '—' : money(r.total_amount, r.currency_code)}
                      </span>
                    </span>
                  </li>
                ))}
              </ol>
              <RouterLink to="/Receipts">All receipts</RouterLink>
            </DashboardCard>
          </div>
        </>
      )}
    </main>
  );
}
