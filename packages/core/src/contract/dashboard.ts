/**
 * Request schema and answer type of GET /api/dashboard: the signed-in Home's figures, computed on the
 * server from the user's report data so a phone downloads a few kilobytes instead of every receipt.
 * No Node APIs here; the web app imports these for its call.
 */
import * as z from 'zod';
import { idSchema } from './ids';
import type { Receipt } from '../entities';

/** The periods Home can show: the current month, quarter or year, against the one before. */
export const DASHBOARD_PERIODS = ['month', 'quarter', 'year'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];

/** Entries in each of Home's top lists and in its latest receipts. */
export const DASHBOARD_TOP_COUNT = 5;
/** Months in Home's bar chart, the current one last. */
export const DASHBOARD_MONTHS = 12;

const dayParam = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date written YYYY-MM-DD, e.g. 2024-05-31.`)
    .refine((value) => {
      const time = Date.parse(`${value}T00:00:00Z`);
      // The calendar's own day: 2024-02-30 is not one (Date.parse would roll it into March).
      return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
    }, `${name} is not a real date.`)
    .refine(
      (value) => value >= '1970-01-01' && value <= '2099-12-31',
      `${name} must be a day between 1970 and 2099.`,
    );

/** GET /api/dashboard?userId=&period=&today=&at= */
export const dashboardQuery = z.object({
  userId: idSchema('userId'),
  period: z
    .enum(DASHBOARD_PERIODS, { error: `period must be one of ${DASHBOARD_PERIODS.join(', ')}.` })
    .default('month'),
  /**
   * The person's own calendar day (their time zone decides which month "this month" is); the server's
   * day when left out.
   */
  today: dayParam('today').optional(),
  /**
   * Any day of the period to show (an earlier month, quarter or year), against the one before it;
   * the period that holds `today` when left out.
   */
  at: dayParam('at').optional(),
});
export type DashboardQuery = z.output<typeof dashboardQuery>;

/** Money summed per currency code ('' for amounts whose currency is unknown); never added across. */
export type CurrencyTotals = Record<string, number>;

/** A day range, both ends included (`YYYY-MM-DD`). */
export interface DayRange {
  from: string;
  to: string;
}

/** One entry of a top list: its sum in its most frequent currency, and all its sums. */
export interface DashboardTopEntry {
  /** The merchant id (merchants) or the name (brands, corporations): what its page is opened with. */
  id: string;
  name: string;
  total: number;
  currency_code: string | null;
  totals_by_currency: CurrencyTotals;
  /** Visits (merchants) or items bought (brands, corporations) in the period. */
  count: number;
  /**
   * Corporations only: what it got through the shops it owns in the period (visits and receipts'
   * sums), shown apart from `total`, which is through its brands; the two are never added.
   */
  through_shops?: {
    count: number;
    total: number;
    currency_code: string | null;
    totals_by_currency: CurrencyTotals;
  };
}

/** GET /api/dashboard's answer. */
export interface DashboardAnswer {
  period: DashboardPeriod;
  /** The day the periods were counted from: `at` when asked for, else the person's day. */
  today: string;
  /** Whether the period shown holds the person's day (no later period has data yet). */
  isCurrent: boolean;
  current: DayRange;
  previous: DayRange;
  /**
   * Spending per currency in the current and the previous period, with receipt counts; a currency
   * appears when either period has a receipt in it. Most receipts first.
   */
  spending: { currency: string | null; current: number; previous: number; receipts: number }[];
  /** The last {@link DASHBOARD_MONTHS} months, oldest first, each `YYYY-MM` with its totals. */
  months: { month: string; totals: CurrencyTotals; receipts: number }[];
  topMerchants: DashboardTopEntry[];
  topBrands: DashboardTopEntry[];
  topCorporations: DashboardTopEntry[];
  /** Spending per receipt category in the current period (null: no category), largest first. */
  categories: { category: string | null; totals: CurrencyTotals; receipts: number }[];
  /** The user's newest receipts, whatever their date. */
  latestReceipts: Receipt[];
  /** All of the user's receipts, any date (0: an empty account). */
  receiptCount: number;
  /** The user's receipts whose analysis asked for a person to check them (the /Review list). */
  needsReview: number;
  /** The user's data version the figures were computed from. */
  version: string;
}
