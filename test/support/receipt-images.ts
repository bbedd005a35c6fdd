import sharp from 'sharp';

/**
 * Synthetic shop receipts for tests: a receipt is described as data, laid out as the fixed-width text
 * a thermal printer would print, drawn into an SVG in a monospace font and rasterised with sharp.
 * The canonical samples at the bottom come with the ground truth an analyzer should read from them,
 * so API and browser tests can upload a real image and check what the reports show.
 */

export interface ReceiptLineItem {
  description: string;
  qty?: number;
  unitPrice?: number;
  /** The line total. */
  price: number;
}

export interface ReceiptTaxLine {
  /** Printed label, e.g. `GST 6%` or `VAT 20%`. */
  label: string;
  amount: number;
  /** Percent, when the label carries one. */
  rate?: number;
}

export interface ReceiptSpec {
  merchant: string;
  addressLines: string[];
  phone?: string;
  /** Transaction day, `YYYY-MM-DD`; printed in `dateStyle`. */
  date: string;
  /** How the date is printed: day first (default), month first, ISO or `12 Mar 2024`. */
  dateStyle?: 'dmy' | 'mdy' | 'iso' | 'long';
  /** `HH:MM` or `HH:MM:SS`, printed as given. */
  time?: string;
  items: ReceiptLineItem[];
  subtotal?: number;
  taxes?: ReceiptTaxLine[];
  /** A rounding adjustment printed before the total (Malaysian receipts). */
  rounding?: number;
  total: number;
  /** Printed before the total, e.g. `$`, `£`, `€` or `RM`. */
  currencySymbol: string;
  paid?: number;
  change?: number;
  /** Lines printed under the merchant, e.g. a company number or `TAX INVOICE`. */
  headerNotes?: string[];
  footer?: string[];
}

export interface RenderOptions {
  format?: 'jpeg' | 'png';
  /** Makes it look like a phone photo: a small rotation, sensor noise, blur, a grey cast, lower size. */
  photo?: boolean;
  /** Degrees, clockwise; defaults to 2.5 for photos and 0 otherwise. */
  rotate?: number;
  /** Pixel height of one printed line (default 34). */
  lineHeight?: number;
}

/** Characters on one printed line, as on an 80 mm thermal roll. */
export const RECEIPT_COLUMNS = 42;

const money = (n: number) => n.toFixed(2);
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

function printedDate(iso: string, style: ReceiptSpec['dateStyle']): string {
  const [y, m, d] = iso.split('-');
  if (!y || !m || !d) throw new Error(`date must be YYYY-MM-DD, got ${iso}`);
  switch (style ?? 'dmy') {
    case 'mdy':
      return `${m}/${d}/${y}`;
    case 'iso':
      return iso;
    case 'long':
      return `${Number(d)} ${MONTHS[Number(m) - 1]} ${y}`;
    default:
      return `${d}/${m}/${y}`;
  }
}

function centre(text: string): string {
  const pad = Math.max(0, Math.floor((RECEIPT_COLUMNS - text.length) / 2));
  return ' '.repeat(pad) + text;
}

/** `left` and `right` on one line, the right part flush with the right margin. */
function spread(left: string, right: string): string {
  const gap = Math.max(2, RECEIPT_COLUMNS - left.length - right.length);
  return left + ' '.repeat(gap) + right;
}

/** The receipt as the lines of text it prints, in order. */
export function receiptLines(spec: ReceiptSpec): string[] {
  const rule = '-'.repeat(RECEIPT_COLUMNS);
  const lines: string[] = [];
  lines.push(centre(spec.merchant));
  for (const note of spec.headerNotes ?? []) lines.push(centre(note));
  for (const a of spec.addressLines) lines.push(centre(a));
  if (spec.phone) lines.push(centre(`TEL: ${spec.phone}`));
  lines.push('');
  const date = `DATE: ${printedDate(spec.date, spec.dateStyle)}`;
  lines.push(spec.time ? spread(date, `TIME: ${spec.time}`) : date);
  lines.push(rule);
  for (const item of spec.items) {
    lines.push(spread(item.description, money(item.price)));
    if (item.qty !== undefined && item.unitPrice !== undefined) {
      lines.push(`  ${item.qty} x ${money(item.unitPrice)}`);
    }
  }
  lines.push(rule);
  if (spec.subtotal !== undefined) lines.push(spread('SUBTOTAL', money(spec.subtotal)));
  for (const tax of spec.taxes ?? []) lines.push(spread(tax.label, money(tax.amount)));
  if (spec.rounding !== undefined) lines.push(spread('ROUNDING', money(spec.rounding)));
  lines.push(spread('TOTAL', `${spec.currencySymbol}${money(spec.total)}`));
  if (spec.paid !== undefined) lines.push(spread('CASH', money(spec.paid)));
  if (spec.change !== undefined) lines.push(spread('CHANGE', money(spec.change)));
  lines.push('');
  for (const f of spec.footer ?? ['THANK YOU, PLEASE COME AGAIN']) lines.push(centre(f));
  return lines;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A small deterministic generator, so a "noisy photo" is the same image on every run. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws the receipt with sharp from an SVG in 'DejaVu Sans Mono'; returns JPEG (default) or PNG bytes. */
export async function renderReceipt(spec: ReceiptSpec, options: RenderOptions = {}): Promise<Uint8Array> {
  return renderPrintedLines(receiptLines(spec), options);
}

/** Draws printed lines as {@link renderReceipt} draws a whole receipt (a part of one, for a page). */
export async function renderPrintedLines(lines: string[], options: RenderOptions = {}): Promise<Uint8Array> {
  const lineHeight = options.lineHeight ?? 34;
  const fontSize = Math.round(lineHeight * 0.7);
  const margin = Math.round(lineHeight * 1.2);
  // DejaVu Sans Mono advances 0.602 em per character.
  const width = Math.ceil(RECEIPT_COLUMNS * fontSize * 0.602 + 2 * margin);
  const height = lines.length * lineHeight + 2 * margin;
  const text = lines
    .map(
      (line, i) =>
        `<text x="${margin}" y="${margin + (i + 1) * lineHeight - Math.round(lineHeight * 0.3)}">${escapeXml(line)}</text>`,
    )
    .join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>` +
    `<g font-family="DejaVu Sans Mono" font-size="${fontSize}" fill="#111111" xml:space="preserve">${text}</g></svg>`;

  let image = sharp(Buffer.from(svg)).flatten({ background: '#ffffff' });
  const rotate = options.rotate ?? (options.photo ? 2.5 : 0);
  if (options.photo) {
    const flat = await image.raw().toBuffer({ resolveWithObject: true });
    const { data, info } = flat;
    const random = prng(width * 31 + height);
    for (let i = 0; i < data.length; i++) {
      // Paper is not white under room light, and the sensor adds grain.
      const grain = (random() - 0.5) * 60;
      data[i] = Math.max(0, Math.min(255, Math.round(data[i]! * 0.86 + 12 + grain)));
    }
    image = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).blur(
      0.6,
    );
  }
  if (rotate !== 0) image = image.rotate(rotate, { background: options.photo ? '#9a9a9a' : '#ffffff' });
  if (options.photo) image = sharp(await image.png().toBuffer()).resize({ width: Math.round(width * 0.8) });
  const out =
    options.format === 'png' ? image.png() : image.jpeg({ quality: options.photo ? 72 : 90, mozjpeg: false });
  return new Uint8Array(await out.toBuffer());
}

/** What an analyzer should read from a sample receipt. */
export interface SampleTruth {
  merchant: {
    name: string;
    street_address: string | null;
    postal_code: string | null;
    phone_number: string | null;
  };
  receipt: {
    transaction_date: string;
    transaction_time: string | null;
    total_amount: number;
    subtotal: number | null;
    total_tax: number | null;
    currency_code: string;
  };
  items: { description: string; quantity: number | null; unit_price: number | null; total_price: number }[];
}

export interface SampleReceipt {
  /** A short name for test titles. */
  name: string;
  spec: ReceiptSpec;
  truth: SampleTruth;
}

function truthOf(spec: ReceiptSpec, currency_code: string, postal_code: string | null): SampleTruth {
  const time = spec.time ? (spec.time.length === 5 ? `${spec.time}:00` : spec.time) : null;
  return {
    merchant: {
      name: spec.merchant,
      street_address: spec.addressLines.length > 0 ? spec.addressLines.join(', ') : null,
      postal_code,
      phone_number: spec.phone ?? null,
    },
    receipt: {
      transaction_date: spec.date,
      transaction_time: time,
      total_amount: spec.total,
      subtotal: spec.subtotal ?? null,
      total_tax: spec.taxes ? Math.round(spec.taxes.reduce((s, t) => s + t.amount, 0) * 100) / 100 : null,
      currency_code,
    },
    items: spec.items.map((i) => ({
      description: i.description,
      quantity: i.qty ?? null,
      unit_price: i.unitPrice ?? null,
      total_price: i.price,
    })),
  };
}

const groceryUs: ReceiptSpec = {
  merchant: 'FRESHMART GROCERS',
  addressLines: ['1200 MAPLE AVENUE', 'SPRINGFIELD, IL 62704'],
  phone: '(217) 555-0143',
  date: '2024-03-12',
  dateStyle: 'mdy',
  time: '14:35',
  items: [
    { description: 'COCA-COLA 1.5L', qty: 2, unitPrice: 1.99, price: 3.98 },
    { description: 'HEINZ KETCHUP', price: 3.49 },
    { description: 'DOVE SOAP', price: 4.99 },
  ],
  subtotal: 12.46,
  taxes: [{ label: 'SALES TAX 8%', amount: 1.0, rate: 8 }],
  total: 13.46,
  currencySymbol: '$',
  paid: 20,
  change: 6.54,
};

const cornerShopUk: ReceiptSpec = {
  merchant: 'CORNER PANTRY',
  addressLines: ['14 STATION ROAD', 'LEEDS LS1 4DT'],
  phone: '0113 496 0321',
  date: '2023-11-05',
  time: '09:12:44',
  items: [
    { description: 'HEINZ BAKED BEANS', qty: 3, unitPrice: 1.1, price: 3.3 },
    { description: 'CADBURY DAIRY MILK', price: 1.85 },
    { description: 'PG TIPS TEA 80', price: 3.75 },
    { description: 'COLGATE TOOTHPASTE', price: 2.5 },
  ],
  taxes: [{ label: 'VAT INCLUDED 20%', amount: 1.9, rate: 20 }],
  total: 11.4,
  currencySymbol: '£',
  paid: 20,
  change: 8.6,
};

const kedaiMy: ReceiptSpec = {
  merchant: 'KEDAI RUNCIT MAJU SDN BHD',
  headerNotes: ['(123456-X)'],
  addressLines: ['NO 8, JALAN MAWAR 3', '47400 PETALING JAYA, SELANGOR'],
  phone: '03-7728 1234',
  date: '2018-03-16',
  time: '18:02',
  items: [
    { description: 'NESCAFE CLASSIC 200G', price: 15.9 },
    { description: 'MILO 1KG', price: 17.5 },
    { description: 'MAGGI CURRY 5S', qty: 2, unitPrice: 4.2, price: 8.4 },
  ],
  subtotal: 41.8,
  taxes: [{ label: 'GST 6%', amount: 2.51, rate: 6 }],
  rounding: -0.01,
  total: 44.3,
  currencySymbol: 'RM',
  paid: 50,
  change: 5.7,
};

/** Receipts the local OCR reads exactly (merchant, date, total, items), with what it should read. */
export const SAMPLE_RECEIPTS: readonly SampleReceipt[] = [
  { name: 'US grocery in dollars', spec: groceryUs, truth: truthOf(groceryUs, 'USD', '62704') },
  { name: 'UK corner shop in pounds', spec: cornerShopUk, truth: truthOf(cornerShopUk, 'GBP', 'LS1 4DT') },
  { name: 'Malaysian shop in ringgit', spec: kedaiMy, truth: truthOf(kedaiMy, 'MYR', '47400') },
];

const jpegCache = new Map<string, Promise<Uint8Array>>();

/** The JPEG bytes of sample receipt `n` (0-based), rendered once per process. */
export function sampleReceiptJpeg(
  n: number,
  options: Pick<RenderOptions, 'photo'> = {},
): Promise<Uint8Array> {
  const sample = SAMPLE_RECEIPTS[n];
  if (!sample)
    throw new Error(`There are ${SAMPLE_RECEIPTS.length} sample receipts; ${n} is not one of them.`);
  const key = `${n}:${options.photo ? 'photo' : 'scan'}`;
  let bytes = jpegCache.get(key);
  if (!bytes) {
    bytes = renderReceipt(sample.spec, { format: 'jpeg', photo: options.photo });
    jpegCache.set(key, bytes);
  }
  return bytes;
}

/** Characters Courier in WinAnsiEncoding prints that are not ASCII, by their byte. */
const WIN_ANSI: Record<string, number> = { '€': 0x80, '£': 0xa3, '¥': 0xa5 };

function pdfString(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) {
    if (ch === '(' || ch === ')' || ch === '\\') out.push(0x5c, ch.charCodeAt(0));
    else if (WIN_ANSI[ch] !== undefined) out.push(WIN_ANSI[ch]);
    else out.push(ch.charCodeAt(0) < 0x80 ? ch.charCodeAt(0) : 0x3f);
  }
  return out;
}

/**
 * The receipt as a one-page PDF with a text layer (Courier, as an e-mailed till receipt), or, with
 * `textLayer: false`, a page with only a drawn frame, like a scan without OCR.
 */
export function receiptPdf(spec: ReceiptSpec, options: { textLayer?: boolean } = {}): Uint8Array {
  const lines = receiptLines(spec);
  const fontSize = 9;
  const leading = 11;
  const width = Math.ceil(RECEIPT_COLUMNS * fontSize * 0.6 + 40);
  const height = lines.length * leading + 40;
  const content: number[] = [];
  const ascii = (s: string) => content.push(...Array.from(s, (c) => c.charCodeAt(0)));
  ascii(`0.8 G 5 5 ${width - 10} ${height - 10} re S\n`);
  if (options.textLayer !== false) {
    ascii(`BT /F1 ${fontSize} Tf ${leading} TL 20 ${height - 20 - fontSize} Td\n`);
    for (const line of lines) {
      ascii('(');
      content.push(...pdfString(line));
      ascii(') Tj T*\n');
    }
    ascii('ET\n');
  }
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>`,
    null,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>',
  ];
  const bytes: number[] = [];
  const push = (s: string) => bytes.push(...Array.from(s, (c) => c.charCodeAt(0)));
  push('%PDF-1.4\n');
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(bytes.length);
    push(`${i + 1} 0 obj\n`);
    if (body === null) {
      push(`<< /Length ${content.length} >>\nstream\n`);
      bytes.push(...content);
      push('\nendstream');
    } else {
      push(body);
    }
    push('\nendobj\n');
  });
  const xref = bytes.length;
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) push(`${String(offset).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Uint8Array.from(bytes);
}

/**
 * The same receipt as another upload would carry it: the image encoded once more (as a second photo
 * or an edited file would be), so its bytes differ and the upload is not refused as a duplicate,
 * while every printed character stays as sharp as before.
 */
export async function anotherCopy(jpeg: Uint8Array, copy = 1): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(Buffer.from(jpeg))
      .jpeg({ quality: 90 - copy, mozjpeg: false })
      .toBuffer(),
  );
}
