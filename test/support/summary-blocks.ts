import fc from 'fast-check';

/**
 * Generated summary blocks of receipts: the figures under the items (subtotal, taxes added or
 * included, a discount, a cash rounding, the total, the tender and the change), with labels in
 * English, German, Malay and Indonesian in several wordings, and at most one figure unreadable.
 * Each block knows its amount due; the property tests render it as OCR text and as a Textract
 * AnalyzeExpense response.
 */

export type Language = 'en' | 'de' | 'ms' | 'id';

/** One printed line of the summary block: what it is, its label and its amount in cents. */
export interface SummaryLine {
  kind:
    'subtotal' | 'tax' | 'included_tax' | 'discount' | 'total' | 'rounding' | 'rounded' | 'tender' | 'change';
  label: string;
  cents: number;
  /** The amount could not be read (printed, but blurred or torn). */
  unreadable: boolean;
}

export interface SummaryBlock {
  language: Language;
  /** The items' amounts, in cents: they add up to the subtotal. */
  items: number[];
  lines: SummaryLine[];
  /** What the customer owed: the total, or the rounded total where cash is rounded. */
  dueCents: number;
}

/** Labels per language and kind; the tender's come from {@link CASH} and {@link CARD}. */
const LABELS: Record<Language, Record<Exclude<SummaryLine['kind'], 'tender'>, string[]>> = {
  en: {
    subtotal: ['SUBTOTAL', 'Sub Total', 'SUB-TOTAL', 'Total Excl. GST'],
    tax: ['GST 6%', 'SST 6%', 'Service Tax 6%', 'TAX'],
    included_tax: ['GST included 6%', 'Incl. VAT 20%'],
    discount: ['DISCOUNT', 'Member Discount', 'Less Discount'],
    total: ['TOTAL', 'GRAND TOTAL', 'AMOUNT DUE', 'TOTAL PAYABLE', 'Total Incl. GST', 'Nett Total'],
    rounding: ['Rounding Adj', 'ROUNDING'],
    rounded: ['TOTAL ROUNDED', 'Rounded Total'],
    change: ['CHANGE', 'Change Due'],
  },
  de: {
    subtotal: ['ZWISCHENSUMME', 'Subtotal'],
    tax: ['MwSt 19%', 'USt 7%'],
    included_tax: ['enth. MwSt 19%', 'inkl. MwSt 7%'],
    discount: ['Rabatt', 'Preisvorteil'],
    total: ['SUMME', 'zu zahlen', 'Summe EUR', 'GESAMTSUMME'],
    rounding: ['Rundung'],
    rounded: ['SUMME gerundet'],
    change: ['Rückgeld', 'ZURÜCK'],
  },
  ms: {
    subtotal: ['JUMLAH KECIL', 'SUBTOTAL'],
    tax: ['CUKAI 6%', 'SST 6%'],
    included_tax: ['Termasuk SST 6%'],
    discount: ['DISKAUN', 'POTONGAN'],
    total: ['JUMLAH', 'JUMLAH BESAR', 'JUMLAH PERLU DIBAYAR', 'TOTAL'],
    rounding: ['Pelarasan Bundar', 'ROUNDING ADJ'],
    rounded: ['JUMLAH BUNDAR', 'TOTAL ROUNDED'],
    change: ['BAKI', 'KEMBALI'],
  },
  id: {
    subtotal: ['SUBTOTAL', 'Sub Total'],
    tax: ['PPN 10%', 'PB1 10%', 'Pajak 10%'],
    included_tax: ['Termasuk PPN 11%'],
    discount: ['DISKON', 'Potongan'],
    total: ['TOTAL', 'TOTAL BAYAR', 'GRAND TOTAL', 'JUMLAH'],
    rounding: ['Pembulatan'],
    rounded: ['TOTAL PEMBULATAN'],
    change: ['KEMBALI', 'KEMBALIAN'],
  },
};

/** Generated summary blocks, see {@link SummaryBlock}. */
export function summaryBlocks(): fc.Arbitrary<SummaryBlock> {
  return fc
    .record({
      language: fc.constantFrom<Language>('en', 'de', 'ms', 'id'),
      items: fc.array(fc.integer({ min: 50, max: 20_000 }), { minLength: 1, maxLength: 4 }),
      printSubtotal: fc.boolean(),
      tax: fc.constantFrom('none', 'added', 'included'),
      taxRate: fc.constantFrom(6, 10, 19),
      discountCents: fc.oneof(fc.constant(0), fc.integer({ min: 10, max: 500 })),
      cashRounding: fc.boolean(),
      // `cash-paid`: the cash paid and the cash handed over both printed, then the change.
      tender: fc.constantFrom('none', 'cash', 'card', 'cash-paid'),
      extraCash: fc.integer({ min: 0, max: 5_000 }),
      labelSeed: fc.array(fc.nat(), { minLength: 9, maxLength: 9 }),
      unreadable: fc.option(
        fc.constantFrom<SummaryLine['kind']>('subtotal', 'tax', 'total', 'tender', 'change'),
      ),
    })
    .map((g) => {
      const labels = LABELS[g.language];
      const label = (kind: Exclude<SummaryLine['kind'], 'tender'>, n: number) =>
        labels[kind][g.labelSeed[n]! % labels[kind].length]!;
      const subtotal = g.items.reduce((s, c) => s + c, 0);
      const discount = Math.min(g.discountCents, Math.floor(subtotal / 2));
      const taxCents = Math.round(((subtotal - discount) * g.taxRate) / 100);
      const total = subtotal - discount + (g.tax === 'added' ? taxCents : 0);
      // Cash rounding to 0.05, only where a rounding is printed.
      const rounded = g.cashRounding ? Math.round(total / 5) * 5 : total;
      const rounding = rounded - total;
      const lines: SummaryLine[] = [];
      const line = (kind: Exclude<SummaryLine['kind'], 'tender'>, cents: number, n: number) =>
        lines.push({ kind, label: label(kind, n), cents, unreadable: false });
      if (g.printSubtotal || g.tax === 'added' || discount > 0) line('subtotal', subtotal, 0);
      if (discount > 0) line('discount', -discount, 1);
      if (g.tax === 'added') line('tax', taxCents, 2);
      line('total', total, 3);
      if (rounding !== 0) {
        line('rounding', rounding, 4);
        line('rounded', rounded, 5);
      }
      if (g.tax === 'included') line('included_tax', Math.round((total * g.taxRate) / (100 + g.taxRate)), 6);
      if (g.tender === 'cash-paid') {
        const cash = rounded + g.extraCash;
        for (const [cents, n] of [
          [rounded, g.labelSeed[7]!],
          [cash, g.labelSeed[7]! + 1],
        ] as const)
          lines.push({ kind: 'tender', label: cashLabel(g.language, n), cents, unreadable: false });
        line('change', cash - rounded, 8);
      } else if (g.tender === 'cash') {
        const cash = rounded + g.extraCash;
        lines.push({
          kind: 'tender',
          label: cashLabel(g.language, g.labelSeed[7]!),
          cents: cash,
          unreadable: false,
        });
        if (cash > rounded || g.extraCash === 0) line('change', cash - rounded, 8);
      } else if (g.tender === 'card') {
        lines.push({
          kind: 'tender',
          label: cardLabel(g.language, g.labelSeed[7]!),
          cents: rounded,
          unreadable: false,
        });
      }
      const blurred = g.unreadable === null ? undefined : lines.find((l) => l.kind === g.unreadable);
      if (blurred) blurred.unreadable = true;
      return { language: g.language, items: g.items, lines, dueCents: rounded };
    });
}

const CASH: Record<Language, string[]> = {
  en: ['CASH', 'CASH TENDERED', 'Tendered'],
  de: ['BAR', 'Gegeben'],
  ms: ['TUNAI'],
  id: ['TUNAI', 'BAYAR'],
};
const CARD: Record<Language, string[]> = {
  en: ['VISA', 'Payment'],
  de: ['KARTENZAHLUNG', 'EC-Karte'],
  ms: ['KAD KREDIT', 'BAYARAN'],
  id: ['DEBIT', 'KARTU KREDIT'],
};
const cashLabel = (language: Language, n: number) => CASH[language][n % CASH[language].length]!;
const cardLabel = (language: Language, n: number) => CARD[language][n % CARD[language].length]!;

/** An amount as the block's language prints it: `1234.50`, or `1234,50` in German. */
export function printAmount(cents: number, language: Language): string {
  const text = (Math.abs(cents) / 100).toFixed(2);
  return `${cents < 0 ? '-' : ''}${language === 'de' ? text.replace('.', ',') : text}`;
}
