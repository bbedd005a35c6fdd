/**
 * Request schemas and answer types of the report routes (GET /api/report and GET /api/exportCsv):
 * paged, sorted and filtered report tables of one user, and their CSV export. No Node APIs here; the
 * web app imports these for its calls and its URL state.
 */
import * as z from 'zod';
import { idSchema } from './ids';
import type { ReportItem, ReportReceipt } from '../entities';

/** The report tables the server pages. */
export const REPORT_TABLES = ['receipts', 'items', 'merchants', 'brands', 'corporations'] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];

/** The tables that can be exported as CSV. */
export const EXPORT_TABLES = ['receipts', 'items'] as const;
export type ExportTable = (typeof EXPORT_TABLES)[number];

/** The columns each table can be sorted by. */
export const REPORT_SORT_COLUMNS = {
  /** `analyzed`: when the receipt was analysed (the review list's order, newest analysis first). */
  receipts: ['date', 'merchant', 'total', 'currency', 'category', 'region', 'analyzed'],
  items: ['date', 'description', 'quantity', 'total', 'merchant', 'brand'],
  merchants: ['name', 'city', 'visits', 'total', 'lastVisit'],
  brands: ['name', 'corporation', 'purchases', 'total'],
  corporations: ['name', 'brands', 'purchases', 'total'],
} as const satisfies Record<ReportTable, readonly string[]>;
export type ReportSortColumn<T extends ReportTable = ReportTable> = (typeof REPORT_SORT_COLUMNS)[T][number];
export type SortDirection = 'asc' | 'desc';

/** The order a table has when the request names none. */
export const REPORT_DEFAULT_SORT: { [T in ReportTable]: { sort: ReportSortColumn<T>; dir: SortDirection } } =
  {
    receipts: { sort: 'date', dir: 'desc' },
    items: { sort: 'date', dir: 'desc' },
    merchants: { sort: 'lastVisit', dir: 'desc' },
    brands: { sort: 'total', dir: 'desc' },
    corporations: { sort: 'total', dir: 'desc' },
  };

/** Rows per page when the request names no page size, and the most one page may hold. */
export const DEFAULT_REPORT_PAGE_SIZE = 25;
export const MAX_REPORT_PAGE_SIZE = 100;
/** Longest search text accepted. */
export const MAX_SEARCH_LENGTH = 100;

const isoDate = (label: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date written YYYY-MM-DD, e.g. 2024-05-31.`)
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), `${label} is not a real date.`);

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} may be at most ${max} characters long.`)
    .optional()
    .transform((value) => (value ? value : undefined));

/** The filters every report table and export accept; all optional, all combined with "and". */
export const reportFilterShape = {
  /**
   * Free text, with one meaning in every table (case, accents and punctuation ignored; every word
   * must occur). A receipt matches when each word is in its merchant's name or city, or one of its
   * items' description, brand or brand owner; an item when each word is in its own description,
   * brand or brand owner, or its merchant's name or city. The receipts and items tables list what
   * matches; the merchants table the merchants of the matching receipts, the brands and corporations
   * tables those of the matching items, each summed over the matching receipts or items only. So
   * "coke" finds the receipt with a Coke on it, its shop, the Coke and its brand and owner.
   */
  q: optionalText('q (the search text)', MAX_SEARCH_LENGTH),
  /** Receipts dated on or after this day. */
  from: isoDate('from').optional(),
  /** Receipts dated on or before this day. */
  to: isoDate('to').optional(),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'currency must be a three-letter currency code such as EUR.')
    .transform((value) => value.toUpperCase())
    .optional(),
  /** The receipt's category (receipt_type), e.g. grocery. */
  category: optionalText('category', 60),
  /** A merchant id, as the merchants table answers it. */
  merchant: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, 'merchant must be a merchant id as the merchants table answers it.')
    .optional(),
  /** A brand name, exactly as the brands table answers it. */
  brand: optionalText('brand', 200),
  /** An owning corporation's name, exactly as the corporations table answers it. */
  corporation: optionalText('corporation', 200),
  /** `needed`: only receipts whose analysis asked for a person to check them (the review list). */
  review: z.enum(['needed'], { error: "review may only be 'needed'." }).optional(),
};
export type ReportFilter = {
  [K in keyof typeof reportFilterShape]?: z.output<(typeof reportFilterShape)[K]>;
};

/**
 * The filters other than the search text: each narrows the rows themselves. The report index answers
 * a receipts or items query with any of them by a pass over the rows; the report totals answer no
 * query with any of them.
 */
export const ROW_FILTERS = [
  'from',
  'to',
  'currency',
  'category',
  'merchant',
  'brand',
  'corporation',
  'review',
] as const satisfies readonly Exclude<keyof typeof reportFilterShape, 'q'>[];
export type RowFilter = (typeof ROW_FILTERS)[number];

const pageSizeSchema = z
  .string()
  .regex(/^\d{1,6}$/, `pageSize must be a whole number from 1 to ${MAX_REPORT_PAGE_SIZE}.`)
  .transform(Number)
  .refine((n) => n >= 1, `pageSize must be at least 1.`)
  .refine(
    (n) => n <= MAX_REPORT_PAGE_SIZE,
    `pageSize may be at most ${MAX_REPORT_PAGE_SIZE}; ask for the next page with pageToken instead.`,
  );

/**
 * A page token as the server gives it out: the offset of the page (base 36) and a fingerprint of the
 * query it belongs to. Opaque to clients; checked again on the server.
 */
export const PAGE_TOKEN_PATTERN = /^[0-9a-z]{1,8}\.[0-9a-f]{8}$/;

const sortShape = {
  sort: z.string().max(40, 'sort is too long.').optional(),
  dir: z.enum(['asc', 'desc'], { error: "dir must be 'asc' or 'desc'." }).optional(),
};

function checkSort(
  value: {
    table: ReportTable;
    sort?: string | undefined;
    from?: string | undefined;
    to?: string | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  const columns: readonly string[] = REPORT_SORT_COLUMNS[value.table];
  if (value.sort !== undefined && !columns.includes(value.sort)) {
    ctx.addIssue({
      code: 'custom',
      path: ['sort'],
      message: `sort must be one of ${columns.join(', ')} for the ${value.table} table; "${value.sort}" is not a column of it.`,
    });
  }
  if (value.from && value.to && value.from > value.to) {
    ctx.addIssue({ code: 'custom', path: ['from'], message: 'from must not be after to.' });
  }
}

/** GET /api/report: one page of one report table. */
export const reportQuery = z
  .object({
    userId: idSchema('userId'),
    table: z.enum(REPORT_TABLES, { error: `table must be one of ${REPORT_TABLES.join(', ')}.` }),
    ...sortShape,
    pageSize: pageSizeSchema.optional(),
    pageToken: z
      .string()
      .regex(
        PAGE_TOKEN_PATTERN,
        'pageToken is not one this server gave out; leave it out to start from the first page.',
      )
      .optional(),
    ...reportFilterShape,
  })
  .superRefine(checkSort);
export type ReportQuery = z.output<typeof reportQuery>;

/** GET /api/exportCsv: every row of the receipts or items table under the filter, as CSV. */
export const exportCsvQuery = z
  .object({
    userId: idSchema('userId'),
    table: z.enum(EXPORT_TABLES, { error: `table must be one of ${EXPORT_TABLES.join(', ')}.` }),
    ...sortShape,
    ...reportFilterShape,
  })
  .superRefine(checkSort);
export type ExportCsvQuery = z.output<typeof exportCsvQuery>;

/** A merchant row of the merchants table, summed over the filtered receipts. */
export interface MerchantReportRow {
  merchant_id: string;
  name: string;
  city: string | null;
  owning_corporation: string | null;
  visits: number;
  /** The sum in `currency_code`, the merchant's most frequent currency. */
  total: number;
  currency_code: string | null;
  totals_by_currency: Record<string, number>;
  first_visit: string | null;
  last_visit: string | null;
}

/** A brand row of the brands table, summed over the filtered items. */
export interface BrandReportRow {
  name: string;
  owning_corporation: string | null;
  purchases: number;
  /** The sum in `currency_code`, the brand's most frequent currency. */
  total: number;
  currency_code: string | null;
  totals_by_currency: Record<string, number>;
}

/**
 * What a corporation got through the shops it owns: the visits to them and the receipts' totals.
 * Never added to the figures through its brands, which may be bought in those same shops.
 */
export interface CorporationShopFigures {
  /** The shops (merchant names) of the corporation's chains the user visited. */
  merchants: string[];
  visits: number;
  /** The sum in `currency_code`, the most frequent currency of those visits. */
  total: number;
  currency_code: string | null;
  totals_by_currency: Record<string, number>;
}

/**
 * A corporation row: its brands the user bought, summed over the filtered items (`purchases`,
 * `total`: through the brands), and apart from them the receipts of its shops (`through_shops`).
 */
export interface CorporationReportRow {
  name: string;
  brands: string[];
  purchases: number;
  total: number;
  currency_code: string | null;
  totals_by_currency: Record<string, number>;
  /** Present when the user visited a shop the corporation owns. */
  through_shops?: CorporationShopFigures;
}

/**
 * Adds to the corporations' rows what each got through its shops (from the merchants' rows and their
 * owning corporations), and a row for each shop owner none of whose brands was bought. The two are
 * kept apart: a brand bought in its owner's shop is in both, so they are never added together.
 * @param corporations - the corporations' rows through the brands
 * @param merchants - the merchants' rows under the same filter
 */
export function withShopOwners(
  corporations: CorporationReportRow[],
  merchants: readonly MerchantReportRow[],
): CorporationReportRow[] {
  const shops = new Map<string, { rows: MerchantReportRow[] }>();
  for (const m of merchants) {
    if (!m.owning_corporation || m.visits === 0) continue;
    const entry = shops.get(m.owning_corporation) ?? { rows: [] };
    entry.rows.push(m);
    shops.set(m.owning_corporation, entry);
  }
  const out = corporations.map((row) => ({ ...row }));
  const byName = new Map(out.map((row) => [row.name, row]));
  for (const [name, { rows }] of shops) {
    const totals: Record<string, number> = {};
    const visitsBy = new Map<string | null, number>();
    for (const m of rows) {
      for (const [currency, sum] of Object.entries(m.totals_by_currency))
        totals[currency] = Math.round(((totals[currency] ?? 0) + sum) * 100) / 100;
      visitsBy.set(m.currency_code, (visitsBy.get(m.currency_code) ?? 0) + m.visits);
    }
    const currency = [...visitsBy].sort(
      (a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])),
    )[0]![0];
    const figures: CorporationShopFigures = {
      merchants: [...new Set(rows.map((m) => m.name))].sort((a, b) => a.localeCompare(b)),
      visits: rows.reduce((n, m) => n + m.visits, 0),
      total: currency === null ? 0 : (totals[currency] ?? 0),
      currency_code: currency,
      totals_by_currency: totals,
    };
    const row = byName.get(name);
    if (row) row.through_shops = figures;
    else
      out.push({
        name,
        brands: [],
        purchases: 0,
        total: 0,
        currency_code: null,
        totals_by_currency: {},
        through_shops: figures,
      });
  }
  return out;
}

/** The row type of each table. */
export interface ReportRows {
  /** The receipt as the reports hold it, with its etag and review state. */
  receipts: ReportReceipt;
  items: ReportItem;
  merchants: MerchantReportRow;
  brands: BrandReportRow;
  corporations: CorporationReportRow;
}

/** One page of a report table. */
export interface ReportPage<T extends ReportTable = ReportTable> {
  table: T;
  rows: ReportRows[T][];
  /** Rows under the filter, over all pages. */
  count: number;
  /** Money over all rows under the filter, one sum per currency (never added across currencies). */
  totals: Record<string, number>;
  /** Counts over all rows under the filter: quantity (items), visits, purchases, brands. */
  sums: Record<string, number>;
  sort: string;
  dir: SortDirection;
  pageSize: number;
  /** 0-based index of the first row of this page. */
  offset: number;
  nextPageToken: string | null;
  previousPageToken: string | null;
  /** The user's data version the page was read from. */
  version: string;
}
