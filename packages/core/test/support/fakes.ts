import {
  AnalyzerError,
  type AnalysisResult,
  type Analyzer,
  type BlobStore,
  type Identity,
  type Notifier,
  type PushMessage,
  type ScanJob,
  type ScanQueue,
} from '../../src';

/** Blob store in memory. */
export class MemoryBlobStore implements BlobStore {
  readonly objects = new Map<string, { bytes: Uint8Array; contentType: string }>();
  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    this.objects.set(key, { bytes: new Uint8Array(bytes), contentType });
  }
  async get(key: string) {
    return this.objects.get(key) ?? null;
  }
  async delete(key: string): Promise<void> {
    this.objects.delete(key);
  }
  async list(prefix: string): Promise<string[]> {
    return [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort();
  }
}

/** A queue that records jobs; tests deliver them by hand. */
export class RecordingQueue implements ScanQueue {
  readonly jobs: { job: ScanJob; delaySeconds?: number }[] = [];
  async enqueue(job: ScanJob, options?: { delaySeconds?: number }): Promise<void> {
    this.jobs.push({ job, delaySeconds: options?.delaySeconds });
  }
}

export const identity = (uid: string, email = `${uid}@example.com`): Identity => ({ uid, email, name: uid });

/** What the fake analyzer reads from an image made by `fakeReceiptImage`. */
export interface FakeReceipt {
  merchant: string;
  postal?: string | null;
  phone?: string;
  city?: string;
  /** null: no date was read (see `printsNoDate`). */
  date: string | null;
  /** The receipt prints no date at all (a restaurant bill), rather than one that did not read. */
  printsNoDate?: boolean;
  /** `HH:MM:SS`; '10:00:00' when not given, '' for a receipt without a time. */
  time?: string;
  currency?: string;
  total: number;
  items: { description: string; price: number; brand?: string; owner?: string }[];
  tax?: number;
  /** Tells two photos of the same receipt apart: their bytes differ, as a camera's would. */
  photo?: string;
}

/** A JPEG-looking image that carries the receipt as JSON after the JPEG magic bytes. */
export function fakeReceiptImage(receipt: FakeReceipt): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(receipt));
  return new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...json]);
}

export function dataUrlOf(bytes: Uint8Array, type = 'image/jpeg'): string {
  return `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
}

/** Reads receipts made by fakeReceiptImage; can be told to fail. */
export class FakeAnalyzer implements Analyzer {
  readonly name = 'fake';
  calls = 0;
  failures: Error[] = [];

  async analyze(image: Uint8Array): Promise<AnalysisResult> {
    this.calls += 1;
    const failure = this.failures.shift();
    if (failure) throw failure;
    let receipt: FakeReceipt;
    try {
      receipt = JSON.parse(new TextDecoder().decode(image.subarray(4))) as FakeReceipt;
    } catch {
      throw new AnalyzerError('No text could be read from the image.', { retryable: false });
    }
    return {
      analyzer: 'fake',
      receipt: {
        doc_type: 'receipt',
        receipt_type: 'retail',
        country_region: 'BE',
        total_amount: receipt.total,
        subtotal: null,
        currency_code: receipt.currency ?? 'EUR',
        total_tax: receipt.tax ?? null,
        transaction_date: receipt.date,
        transaction_time: receipt.time === undefined ? '10:00:00' : receipt.time || null,
        total_checks_out: true,
      },
      merchant: {
        name: receipt.merchant,
        phone_number: receipt.phone ?? null,
        postal_code: receipt.postal ?? null,
        city: receipt.city ?? null,
        street_address: null,
      },
      items: receipt.items.map((i) => ({
        description: i.description,
        quantity: 1,
        unit_price: i.price,
        total_price: i.price,
        brand: i.brand ?? null,
        owning_corporation: i.owner ?? null,
      })),
      taxes: receipt.tax ? [{ description: 'VAT', rate: 21, amount: receipt.tax }] : [],
      confidence: {},
      raw: { receipt },
      ...(receipt.printsNoDate ? { prints_date: false } : {}),
    };
  }
}

/** Records pushes; reports the tokens in `invalid` as invalid. */
export class RecordingNotifier implements Notifier {
  readonly sent: { tokens: string[]; message: PushMessage }[] = [];
  invalid = new Set<string>();
  async send(tokens: string[], message: PushMessage): Promise<{ invalidTokens: string[] }> {
    this.sent.push({ tokens, message });
    return { invalidTokens: tokens.filter((t) => this.invalid.has(t)) };
  }
}
