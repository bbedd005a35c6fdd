import type { DashboardAnswer } from '@receipts/core/contract/dashboard';
import type {
  AppData,
  Brand,
  QueueEntry,
  ReportItem,
  ReportMerchant,
  ReportReceipt,
} from '@receipts/core/entities';

export function makeReceipt(overrides: Partial<ReportReceipt> = {}): ReportReceipt {
  const id = overrides.receipt_id ?? 'r1';
  return {
    receipt_id: id,
    doc_type: 'receipt',
    receipt_type: 'grocery',
    country_region: 'BE',
    merchant_id: 'm1',
    merchant_name: 'Colruyt',
    total_amount: 12.5,
    currency_code: 'EUR',
    total_tax: null,
    transaction_date: '2024-05-01',
    transaction_time: '10:15:00',
    user_id: 'user-1',
    document_url: `users/user-1/${id}-receipt.jpg`,
    total_checks_out: true,
    etag: `etag-${id}`,
    ...overrides,
  };
}

export function makeMerchant(overrides: Partial<ReportMerchant> = {}): ReportMerchant {
  return {
    merchant_id: 'm1',
    name: 'Colruyt',
    phone_number: '+32 2 123 45 67',
    postal_code: '1000',
    city: 'Brussels',
    street_address: 'Rue Neuve 1',
    user_id: 'user-1',
    merchant_region: 'BE',
    merchant_total_amount: 12.5,
    merchant_first_visit: '2024-05-01',
    merchant_last_visit: '2024-05-01',
    ...overrides,
  };
}

export function makeItem(overrides: Partial<ReportItem> = {}): ReportItem {
  return {
    item_id: 'i1',
    receipt_id: 'r1',
    description: 'Coca-Cola 1.5L',
    unit_price: 2.5,
    quantity: 1,
    total_price: 2.5,
    currency_code: 'EUR',
    user_id: 'user-1',
    brand: 'Coca-Cola',
    merchant_name: 'Colruyt',
    receipt_transaction_date: '2024-05-01',
    ...overrides,
  };
}

export function makeBrand(overrides: Partial<Brand> = {}): Brand {
  return {
    name: 'Coca-Cola',
    owning_corporation: 'The Coca-Cola Company',
    purchases: 1,
    total: 2.5,
    ...overrides,
  };
}

export function makeAppData(overrides: Partial<AppData> = {}): AppData {
  return {
    version: 'v-test-1',
    reportMerchants: [makeMerchant()],
    corporations: [{ name: 'The Coca-Cola Company' }],
    brands: [makeBrand()],
    reportReceipts: [makeReceipt()],
    reportProductItems: [makeItem()],
    ...overrides,
  };
}

export function makeQueueEntry(overrides: Partial<QueueEntry> = {}): QueueEntry {
  return {
    fileName: '1714550000000-receipt.jpg',
    image: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
    status: 'false',
    ...overrides,
  };
}

/** GET /api/dashboard's answer for an account without receipts (April 2024). */
export function makeEmptyDashboard(): DashboardAnswer {
  return {
    period: 'month',
    today: '2024-04-20',
    isCurrent: true,
    current: { from: '2024-04-01', to: '2024-04-30' },
    previous: { from: '2024-03-01', to: '2024-03-31' },
    spending: [],
    months: Array.from({ length: 12 }, (_, i) => ({
      month: new Date(Date.UTC(2023, 4 + i, 1)).toISOString().slice(0, 7),
      totals: {},
      receipts: 0,
    })),
    topMerchants: [],
    topBrands: [],
    topCorporations: [],
    categories: [],
    latestReceipts: [],
    receiptCount: 0,
    needsReview: 0,
    version: 'v0',
  };
}
