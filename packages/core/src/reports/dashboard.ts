import { roundMoney } from '../analysis';
import {
  DASHBOARD_MONTHS,
  DASHBOARD_TOP_COUNT,
  type CurrencyTotals,
  type DashboardAnswer,
  type DashboardPeriod,
  type DashboardTopEntry,
  type DayRange,
} from '../contract/dashboard';
import type { BrandReportRow, CorporationReportRow, MerchantReportRow } from '../contract/reports';
import type { ReportIndex } from './index-build';
import { queryReportIndex } from './query';

/** `YYYY-MM-DD` of a year, month (1-12, may run past 12 or below 1) and day. */
function dayOf(year: number, month: number, day: number): string {
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
}

/** First month (1-12) of the period that holds `month`. */
function periodStartMonth(period: DashboardPeriod, month: number): number {
  if (period === 'year') return 1;
  if (period === 'quarter') return Math.floor((month - 1) / 3) * 3 + 1;
  return month;
}

const PERIOD_MONTHS: Record<DashboardPeriod, number> = { month: 1, quarter: 3, year: 12 };

/**
 * The whole calendar month, quarter or year that holds `today`, and the one before it. Day 0 of a
 * month is the last day of the month before, which gives each range's last day.
 */
export function periodRanges(
  period: DashboardPeriod,
  today: string,
): { current: DayRange; previous: DayRange } {
  const year = Number(today.slice(0, 4));
  const start = periodStartMonth(period, Number(today.slice(5, 7)));
  const length = PERIOD_MONTHS[period];
  return {
    current: { from: dayOf(year, start, 1), to: dayOf(year, start + length, 0) },
    previous: { from: dayOf(year, start - length, 1), to: dayOf(year, start, 0) },
  };
}

class Totals {
  private readonly sums = new Map<string, number>();
  add(currency: string | null, amount: number | null): void {
    if (amount === null) return;
    const key = currency ?? '';
    this.sums.set(key, (this.sums.get(key) ?? 0) + amount);
  }
  get(currency: string): number {
    return roundMoney(this.sums.get(currency) ?? 0);
  }
  record(): CurrencyTotals {
    const out: CurrencyTotals = {};
    for (const [c, sum] of [...this.sums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      out[c] = roundMoney(sum);
    return out;
  }
}

const inRange = (day: string | null, range: DayRange) => day !== null && day >= range.from && day <= range.to;

function topOf(
  index: ReportIndex,
  table: 'merchants' | 'brands' | 'corporations',
  range: DayRange,
): DashboardTopEntry[] {
  const page = queryReportIndex(index, {
    table,
    sort: 'total',
    dir: 'desc',
    from: range.from,
    to: range.to,
    pageSize: DASHBOARD_TOP_COUNT,
  });
  return (page.rows as (MerchantReportRow | BrandReportRow | CorporationReportRow)[]).map((row) => ({
    id: 'merchant_id' in row ? row.merchant_id : row.name,
    name: row.name,
    total: row.total,
    currency_code: row.currency_code,
    totals_by_currency: row.totals_by_currency,
    count: 'visits' in row ? row.visits : row.purchases,
    ...('through_shops' in row && row.through_shops
      ? {
          through_shops: {
            count: row.through_shops.visits,
            total: row.through_shops.total,
            currency_code: row.through_shops.currency_code,
            totals_by_currency: row.through_shops.totals_by_currency,
          },
        }
      : {}),
  }));
}

/**
 * Home's figures for one user and period, from their report index: spending this period against the
 * last, per currency; the last 12 months; the top merchants, brands and corporations of the period
 * (through the same queries as GET /api/report, ranked by their sum in their own main currency);
 * spending per category; the newest receipts. Pure and linear in the user's receipts.
 */
export function dashboardOf(
  index: ReportIndex,
  period: DashboardPeriod,
  today: string,
): Omit<DashboardAnswer, 'isCurrent'> {
  const { current, previous } = periodRanges(period, today);
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  const months = Array.from({ length: DASHBOARD_MONTHS }, (_, i) => {
    const first = dayOf(year, month - (DASHBOARD_MONTHS - 1) + i, 1);
    return { month: first.slice(0, 7), totals: new Totals(), receipts: 0 };
  });
  const monthAt = new Map(months.map((m, i) => [m.month, i]));

  const spending = new Map<string, { current: Totals; previous: Totals; receipts: number }>();
  const spendingOf = (currency: string) => {
    let entry = spending.get(currency);
    if (!entry) {
      entry = { current: new Totals(), previous: new Totals(), receipts: 0 };
      spending.set(currency, entry);
    }
    return entry;
  };
  const categories = new Map<string, { category: string | null; totals: Totals; receipts: number }>();

  for (const { receipt } of index.receipts) {
    const day = receipt.transaction_date;
    const currency = receipt.currency_code ?? '';
    const m = day ? monthAt.get(day.slice(0, 7)) : undefined;
    if (m !== undefined) {
      months[m]!.totals.add(receipt.currency_code, receipt.total_amount);
      months[m]!.receipts += 1;
    }
    if (inRange(day, current)) {
      const entry = spendingOf(currency);
      entry.current.add(receipt.currency_code, receipt.total_amount);
      entry.receipts += 1;
      const key = (receipt.receipt_type ?? '').toLowerCase();
      let category = categories.get(key);
      if (!category) {
        category = { category: key || null, totals: new Totals(), receipts: 0 };
        categories.set(key, category);
      }
      category.totals.add(receipt.currency_code, receipt.total_amount);
      category.receipts += 1;
    } else if (inRange(day, previous)) {
      spendingOf(currency).previous.add(receipt.currency_code, receipt.total_amount);
    }
  }

  const largest = (totals: CurrencyTotals) => Math.max(0, ...Object.values(totals));
  return {
    period,
    today,
    current,
    previous,
    spending: [...spending]
      .map(([currency, entry]) => ({
        currency: currency || null,
        current: entry.current.get(currency),
        previous: entry.previous.get(currency),
        receipts: entry.receipts,
      }))
      .sort(
        (a, b) =>
          b.receipts - a.receipts ||
          b.current - a.current ||
          (a.currency ?? '').localeCompare(b.currency ?? ''),
      ),
    months: months.map((m) => ({ month: m.month, totals: m.totals.record(), receipts: m.receipts })),
    topMerchants: topOf(index, 'merchants', current),
    topBrands: topOf(index, 'brands', current),
    topCorporations: topOf(index, 'corporations', current),
    categories: [...categories.values()]
      .map((c) => ({ category: c.category, totals: c.totals.record(), receipts: c.receipts }))
      .sort(
        (a, b) =>
          largest(b.totals) - largest(a.totals) ||
          b.receipts - a.receipts ||
          (a.category ?? '').localeCompare(b.category ?? ''),
      ),
    latestReceipts: queryReportIndex(index, { table: 'receipts', pageSize: DASHBOARD_TOP_COUNT }).rows,
    receiptCount: index.receipts.length,
    needsReview: index.receipts.filter((r) => r.receipt.needs_review === true).length,
    version: index.version,
  };
}
