import {
  MONTH_FIRST_COUNTRIES,
  findAmounts,
  findChainEvidence,
  findDates,
  findTimes,
  isoDate,
  merchantOfChain,
  roundMoney,
  taxRowGross,
  THIN_CONFIDENCE,
  totalChecksOut,
  totalConfidence,
  weighTotal,
  type AmountMatch,
  type Figure,
  type AnalysisResult,
  type AnalyzedTax,
  type ChainLookup,
  type ContradictedField,
  type DateOrder,
  type FoundDate,
} from '@receipts/core';
import { doubtedDigit } from './char-doubts';
import type { CharDoubt } from './paddle-ocr';
import { receiptCurrency } from './receipt-currency';
import { receiptAdjustments, type PrintedAdjustment } from './receipt-adjustments';
import {
  amountsFromArithmetic,
  isColumnHeader,
  isItemAreaEnd,
  itemConfidences,
  readItemArea,
} from './parse-items';
import { settleHeadingLetters, spacedAsChain } from './heading-letters';
import { readMerchant } from './parse-merchant';
import {
  CHANGE_RE,
  closeFullWidthMarks,
  COUNT_RE,
  DISCOUNT_RE,
  PAYMENT_RE,
  ROUNDING_RE,
  SERVICE_RE,
  STRONG_TOTAL_RE,
  SUBTOTAL_RE,
  SUMMARY_RE,
  TAX_NOT_AMOUNT_RE,
  TAX_RE,
  TOTAL_RE,
  TOTAL_WORD_RE,
  UK_POSTCODE_RE,
  US_STATES,
  US_ZIP_RE,
  letterRatio,
  toLines,
  type LineWord,
  type ReceiptLine,
} from './receipt-lines';

/** What the receipt parser returns: an analysis result without the analyzer's name and raw output. */
export type ParsedReceipt = Omit<AnalysisResult, 'raw' | 'analyzer'>;

export interface ParseOptions {
  /** The receipt's country (ISO 3166 alpha-2) when the caller knows it; otherwise it is guessed. */
  country?: string | null;
  /** Forces the order of day and month in ambiguous numeric dates. */
  dateOrder?: DateOrder;
  /** OCR confidence (0..1) of each line of `text`, by line number, for the `confidence` map. */
  lineConfidences?: ReadonlyArray<number | null>;
  /** Known store chains: a chain the receipt names gives the merchant its name, owner and category. */
  chains?: ChainLookup;
  /**
   * The characters of each line of `text` (by line number) that the OCR engine was unsure of: a date
   * or total whose digits it doubted rests on less than its line's confidence says.
   */
  lineDoubts?: ReadonlyArray<readonly CharDoubt[] | null>;
  /** The words of each line of `text` with their boxes, by line number, where the engine gives them. */
  lineWords?: ReadonlyArray<readonly LineWord[] | null | undefined>;
}

/** Countries whose receipts write amounts with a decimal point. */
const DECIMAL_POINT_COUNTRIES = ['US', 'GB', 'MY', 'SG', 'AU', 'CA'];

/** Evidence for the country a receipt comes from: pattern, country, weight. */
const COUNTRY_SIGNS: ReadonlyArray<[RegExp, string, number]> = [
  [/\bS[DO]N\.?\s*[B8]HD\b|\bBERHAD\b|\bS\/B\b/, 'MY', 3],
  [/\bMALAYSIA\b|KUALA LUMPUR|SELANGOR|\bJOHOR\b|PENANG|\bSABAH\b|\bSARAWAK\b|\bPERAK\b|\bMELAKA\b/, 'MY', 3],
  [/\bJALAN\b|\bJLN\b|\bTAMAN\b|\bTMN\b/, 'MY', 2],
  [/\bRM\s?\d|\(RM\)/, 'MY', 2],
  [/\bSINGAPORE\b|\bPTE\.?\s*LTD\b|\bS\$/, 'SG', 3],
  [/\bABN\b|\bAUSTRALIA\b|\bA\$/, 'AU', 3],
  [/\bSALES\s*TAX\b/, 'US', 1],
  [/\bVAT\b.*£|£.*\bVAT\b|\bUNITED KINGDOM\b|\bVAT\s*REG/, 'GB', 2],
  [/£/, 'GB', 1],
  [/\bBTW\b|\bBELGI(?:E|QUE|UM)\b|\bTVA\b.*€/, 'BE', 2],
  [/\bMWST\b|\bUST\.?[\s-]*ID|\bDEUTSCHLAND\b/, 'DE', 2],
  // German summary and tax words: the till's language.
  [
    /\bSTEUER-?\s?(?:NR|NUMMER)\b|\bSUMME\b|\bZU ZAHLEN\b|\bR[UÜ]CKGELD\b|\bKARTENZAHLUNG\b|\bVIELEN DANK\b/,
    'DE',
    2,
  ],
  [/\bCANADA\b|\bHST\b|\bQST\b/, 'CA', 2],
  // A bare dollar sign with nothing else to go on is most often a US receipt. Last, so that any
  // other country with as much evidence wins the tie.
  [/(?<![A-Z])\$/, 'US', 2],
];

/**
 * The country a receipt most likely comes from (ISO 3166 alpha-2), from its company suffixes,
 * place names, postcode shapes, tax names and currency marks; null when nothing points anywhere.
 */
export function guessCountry(text: string): string | null {
  const upper = text.toUpperCase();
  const votes = new Map<string, number>();
  for (const [pattern, country, weight] of COUNTRY_SIGNS) {
    if (pattern.test(upper)) votes.set(country, (votes.get(country) ?? 0) + weight);
  }
  for (const line of upper.split('\n')) {
    const us = US_ZIP_RE.exec(line);
    if (us && US_STATES.has(us[1]!)) votes.set('US', (votes.get('US') ?? 0) + 3);
    const uk = UK_POSTCODE_RE.exec(line);
    if (uk && /^[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}$/.test(uk[1]!)) votes.set('GB', (votes.get('GB') ?? 0) + 2);
  }
  // Amounts written with decimal commas (`59,96`) are never from a country that writes decimal
  // points: a `DE 33104` postcode is no Delaware ZIP, a stray `$` no dollar.
  const commas = upper.match(/\d,\d{2}(?![\d,])/g)?.length ?? 0;
  const points = upper.match(/\d\.\d{2}(?![\d.])/g)?.length ?? 0;
  if (commas >= 3 && commas > 2 * points) for (const c of DECIMAL_POINT_COUNTRIES) votes.delete(c);
  let best: string | null = null;
  let bestVotes = 1;
  for (const [country, n] of votes) {
    if (n > bestVotes) {
      best = country;
      bestVotes = n;
    }
  }
  return best;
}

const DATE_LABEL_RE = /\b(?:DATE|DT|TARIKH|DATED)\b/;
const NOT_TRANSACTION_DATE_RE =
  /\bEXP(?:IRY|IRES|\.)?\b|\bVALID\b|BEST\s*BEFORE|\bUSE\s*BY\b|\bBIRTH|\bPOINTS\b/;
const HOURS_RE = /\bHRS\b|\bHOURS\b|\bOPEN\b|\bDAILY\b|\b(?:MON|TUE|WED|THU|FRI|SAT|SUN)\b/;

interface Picked<T> {
  value: T;
  line: ReceiptLine | null;
}

/**
 * A date printed with the time whose first separator was not read (`01:34PM 568017 0502-18` is
 * 05-02-18): four digits, then the second separator and the year, on a line with a time.
 */
function timedDayMonth(text: string, order: DateOrder): FoundDate | null {
  if (findTimes(text).length === 0) return null;
  const m = /(?<![\d:.,/-])(\d{2})(\d{2})([-/.])(\d{2}|\d{4})(?![\d:.,/-])/.exec(text);
  return m ? (findDates(`${m[1]}${m[3]}${m[2]}${m[3]}${m[4]}`, order)[0] ?? null) : null;
}

function pickDate(lines: ReceiptLine[], order: DateOrder): Picked<FoundDate> | null {
  let first: Picked<FoundDate> | null = null;
  let standalone: Picked<FoundDate> | null = null;
  for (const line of lines) {
    if (NOT_TRANSACTION_DATE_RE.test(line.upper)) continue;
    const labelled = DATE_LABEL_RE.test(line.upper);
    const found = findDates(line.text, order);
    if (found.length === 0) {
      const unseparated = labelled ? labelledDigits(line.text) : timedDayMonth(line.text, order);
      if (unseparated) return { value: unseparated, line };
      continue;
    }
    if (labelled) return { value: found[0]!, line };
    // The till prints the date with the time: `15-07-18 10:35` beats any other unlabelled date.
    const timed = found.find((d) => findTimes(line.text.slice(d.index + d.text.length)).length > 0);
    if (timed) return { value: timed, line };
    first ??= { value: found[0]!, line };
    // Digits run on from letters (`HD01-3-70`, `XE11-22-30`) are a product code, not a date.
    const own: FoundDate | undefined = standalone
      ? undefined
      : found.find((d) => !/\p{L}$/u.test(line.text.slice(0, d.index)));
    if (own) standalone = { value: own, line };
  }
  return standalone ?? first;
}

/**
 * What the receipt's other dates say of the one picked: the same day printed again (`repeated`), or
 * the same day and month with another year (`contradicted`: one of the years is misread, such as
 * `21.04.2015` from a date run into its time beside `Datum: 21.04.2020`); else null.
 */
function checkDate(
  lines: ReceiptLine[],
  date: Picked<FoundDate>,
  order: DateOrder,
): 'repeated' | 'contradicted' | null {
  const iso = date.value.iso;
  const others = lines
    .filter((l) => !NOT_TRANSACTION_DATE_RE.test(l.upper))
    .flatMap((l) => findDates(l.text, order).filter((d) => l !== date.line || d.index !== date.value.index));
  if (others.some((d) => d.iso === iso)) return 'repeated';
  if (others.some((d) => d.iso.slice(5) === iso.slice(5))) return 'contradicted';
  return null;
}

/**
 * A date after its label printed as a run of digits: the till's own `DDMMYYYY` (`DATE: 25042017`), or
 * a `DD/MM/YYYY` whose slashes OCR dropped or read as a 1 or a 7, thin strokes all
 * (`DATE: 250412017`). Read only when exactly one day-first reading is a real day.
 */
function labelledDigits(text: string): FoundDate | null {
  const label = DATE_LABEL_RE.exec(text.toUpperCase());
  const run = /(?<!\d)\d{8,10}(?!\d)/.exec(text.slice(label ? label.index : 0));
  if (!label || !run) return null;
  const digits = run[0];
  const readings = new Set<string>();
  // Each of the two separators was dropped, or read as one digit: try every way of reading them.
  for (const first of [0, 1]) {
    for (const second of [0, 1]) {
      const month = 2 + first;
      const year = month + 2 + second;
      if (digits.length !== year + 4) continue;
      if (first && !/[17]/.test(digits[2]!)) continue;
      if (second && !/[17]/.test(digits[month + 2]!)) continue;
      const iso = isoDate(
        Number(digits.slice(year)),
        Number(digits.slice(month, month + 2)),
        Number(digits.slice(0, 2)),
      );
      if (iso) readings.add(iso);
    }
  }
  if (readings.size !== 1) return null;
  const iso = [...readings][0]!;
  const index = label.index + run.index;
  return { iso, index, text: run[0], certain: false, order: 'dmy' };
}

/** Day/month order: from an unambiguous numeric date on the receipt, else from the country. */
function dateOrderFor(lines: ReceiptLine[], country: string | null): DateOrder {
  for (const line of lines) {
    for (const d of findDates(line.text)) {
      if (d.certain && (d.order === 'dmy' || d.order === 'mdy')) return d.order;
    }
  }
  return country && MONTH_FIRST_COUNTRIES.has(country) ? 'mdy' : 'dmy';
}

function pickTime(
  lines: ReceiptLine[],
  dateLine: ReceiptLine | null,
  dateText: string | null,
): Picked<string> | null {
  const timesIn = (line: ReceiptLine) => {
    const text = dateText && line === dateLine ? line.text.replace(dateText, ' ') : line.text;
    // A date elsewhere on the line (`12.03.19`) must not be read as a time.
    let masked = text;
    for (const d of findDates(text)) masked = masked.replace(d.text, ' ');
    return findTimes(masked);
  };
  if (dateLine) {
    const t = timesIn(dateLine);
    if (t.length > 0) return { value: t[0]!.value, line: dateLine };
  }
  let first: Picked<string> | null = null;
  for (const line of lines) {
    if (HOURS_RE.test(line.upper)) continue;
    const t = timesIn(line);
    if (t.length === 0) continue;
    if (/\bTIME\b/.test(line.upper)) return { value: t[0]!.value, line };
    first ??= { value: t[0]!.value, line };
  }
  return first;
}

/** An amount on a line read a little more leniently: `RM 8 60` on a total line is 8.60. */
function lineAmounts(line: ReceiptLine): AmountMatch[] {
  const found = findAmounts(line.text);
  if (found.length > 0) return found;
  // A tax mark glued to the amount that ends the line (`GST 6% 0.42v`, `GST 6% 1.28~`).
  const text = line.text.trimEnd();
  if (/\d[.,]\d{2}[A-Za-z~]$/.test(text)) {
    const unmarked = findAmounts(text.slice(0, -1));
    if (unmarked.length > 0) return unmarked;
  }
  const spaced = /(?:^|\s)(?:RM|\$|€|£)?\s?(\d{1,5})\s(\d{2})\s*$/.exec(line.text);
  if (spaced) {
    return [
      {
        value: Number(`${spaced[1]}.${spaced[2]}`),
        index: spaced.index ?? 0,
        text: spaced[0].trim(),
        currency: null,
      },
    ];
  }
  return [];
}

/** The amount a label line gives: on the line itself, or alone on the next line. */
function amountFor(lines: ReceiptLine[], at: number): AmountMatch | null {
  const here = lineAmounts(lines[at]!).filter((a) => !/%$/.test(a.text));
  if (here.length > 0) return here[here.length - 1]!;
  const next = lines[at + 1];
  if (next && !/\p{L}{3,}/u.test(next.text.replace(/\b(?:RM|MYR|USD|EUR|GBP)\b/g, ''))) {
    const there = lineAmounts(next);
    if (there.length === 1) return there[0]!;
  }
  return null;
}

interface TotalCandidate {
  value: number;
  line: ReceiptLine;
  at: number;
  weight: number;
}

interface TotalsReading {
  total: Picked<number> | null;
  subtotal: Picked<number> | null;
  taxes: Array<{ tax: AnalyzedTax; line: ReceiptLine; included: boolean }>;
  rounding: number | null;
  paid: number | null;
  change: number | null;
  /** Every money figure of the summary block, for the total's evidence (core's `weighTotal`). */
  figures: Figure[];
  /** The rounding, service charge and discount lines above any tax summary, where printed (`at`). */
  adjustments: PrintedAdjustment[];
  /** Whether the total was read from a line naming it (else it stands in from the tender or subtotal). */
  fromTotalLine: boolean;
}

/** Largest cash rounding a till applies (to the nearest 0.05 or 0.10). */
const MAX_ROUNDING = 0.1;

/**
 * Reads the money lines at the foot of the receipt. The total is the amount paid: lines that name it
 * (GRAND TOTAL, TOTAL DUE, NETT TOTAL, ROUNDED TOTAL, TOTAL INCL GST…) weigh more than a plain TOTAL;
 * SUBTOTAL, tax, discount, count, CASH, TENDERED and CHANGE lines and tax summary tables never count.
 * When several amounts compete, the one that other lines agree with wins: repeated on another total
 * line, equal to cash minus change, to the item sum (with or without tax), or to another total plus
 * the rounding adjustment. When the receipt rounds and cash minus change is within a rounding of
 * the total read, it is the total. Without any total line, cash minus change (or the cash paid)
 * stands in.
 */
function readTotals(
  lines: ReceiptLine[],
  itemSum: number | null,
  doubted: (line: ReceiptLine, figure: string) => boolean = () => false,
): TotalsReading {
  const candidates: TotalCandidate[] = [];
  const taxes: TotalsReading['taxes'] = [];
  let subtotal: Picked<number> | null = null;
  let rounding: number | null = null;
  let roundingAt = -1;
  let paid: number | null = null;
  let change: number | null = null;
  let inSummary = false;
  const figures: Figure[] = [];
  const adjustments: PrintedAdjustment[] = [];
  // Each figure read with the amount of its line, marked when the engine doubted a digit of it.
  const push = (figure: Figure, line: ReceiptLine, text: string) =>
    figures.push(doubted(line, text) ? { ...figure, doubted: true } : figure);

  for (const [at, line] of lines.entries()) {
    const u = line.upper;
    if (SUMMARY_RE.test(u)) inSummary = true;
    // A row of the tax table below the total, whose own figures agree, gives the amount taxed.
    const gross = figures.length > 0 || TAX_RE.test(u) ? taxRowGross(line.text) : null;
    if (gross !== null) push({ kind: 'gross', value: gross }, line, line.text);
    const amount = amountFor(lines, at);
    const strong = STRONG_TOTAL_RE.test(u);
    if (!amount) {
      // A total named strongly whose amount did not read: whatever else is chosen rests on less.
      // A plain TOTAL word counts only below another figure of the summary (above the items it is a
      // column heading, `Item Total`).
      const named =
        strong ||
        (TOTAL_WORD_RE.test(u) &&
          !SUBTOTAL_RE.test(u) &&
          !TAX_RE.test(u) &&
          figures.some((f) => f.value !== null) &&
          letterRatio(line.text) > 0.5);
      // A label whose amount the next total line prints (`Total :` over `19:32 Total: 593.10`) is read.
      const next = lines[at + 1];
      const carried = next !== undefined && TOTAL_RE.test(next.upper) && amountFor(lines, at + 1) !== null;
      if (named && !inSummary && !COUNT_RE.test(u) && !carried)
        figures.push({ kind: 'total', value: null, weight: 3 });
      continue;
    }
    if (ROUNDING_RE.test(u) && !strong) {
      if (rounding === null) {
        rounding = amount.value;
        roundingAt = at;
        push({ kind: 'rounding', value: amount.value }, line, amount.text);
        if (!inSummary) adjustments.push({ kind: 'rounding', value: amount.value, at });
      }
      continue;
    }
    if (COUNT_RE.test(u)) continue;
    if (DISCOUNT_RE.test(u) && !strong) {
      if (!inSummary) {
        push({ kind: 'discount', value: amount.value }, line, amount.text);
        adjustments.push({ kind: 'discount', value: amount.value, at });
      }
      continue;
    }
    // A total before tax (`Total Sales (Excluding GST)`) is a subtotal.
    const beforeTax = TOTAL_WORD_RE.test(u) && /\bEXCL/.test(u) && !/\bINCL/.test(u);
    if ((SUBTOTAL_RE.test(u) || beforeTax) && !(strong && /INCL|INCLUSIVE/.test(u))) {
      subtotal ??= { value: amount.value, line };
      if (!inSummary) push({ kind: 'subtotal', value: amount.value }, line, amount.text);
      continue;
    }
    if (CHANGE_RE.test(u) && !strong) {
      if (change === null) push({ kind: 'change', value: amount.value }, line, amount.text);
      change ??= amount.value;
      continue;
    }
    if (PAYMENT_RE.test(u) && !strong && !/\bTOTAL\b/.test(u)) {
      // Tendered cash is printed as a deduction on some tills (`Cash -50.00`). Every tender is a
      // figure: the cash paid and the cash handed over may both be printed.
      push({ kind: 'tender', value: Math.abs(amount.value) }, line, amount.text);
      // Of several, the change comes out of the largest (the cash handed over).
      paid = Math.max(paid ?? 0, Math.abs(amount.value));
      continue;
    }
    const isTax = TAX_RE.test(u) && !TAX_NOT_AMOUNT_RE.test(u) && !strong;
    if (isTax && !inSummary) {
      const rate = /(\d{1,2}(?:[.,]\d{1,2})?)\s*%/.exec(line.text);
      const included =
        /INCLUDED|INCL\.?\s|INCLUSIVE|INKL\.?\s|ENTH(?:\.|ALTEN)|TERMASUK/i.test(line.text) &&
        !/TOTAL/i.test(line.text);
      if (amount.value >= 0 && (!rate || amount.text !== rate[0])) {
        const cut = line.text.indexOf(amount.text);
        taxes.push({
          tax: {
            description: (cut >= 0 ? line.text.slice(0, cut) : line.text).trim() || line.text,
            rate: rate ? Number(rate[1]!.replace(',', '.')) : null,
            amount: amount.value,
          },
          line,
          included,
        });
      }
      continue;
    }
    if (SERVICE_RE.test(u) && !strong) {
      if (!inSummary) {
        push({ kind: 'charge', value: amount.value }, line, amount.text);
        adjustments.push({ kind: 'charge', value: amount.value, at });
      }
      continue;
    }
    if (inSummary && !strong) continue;
    if (!(strong || TOTAL_RE.test(u)) || amount.value <= 0) continue;
    const plainAmountWord = !strong && !TOTAL_WORD_RE.test(u);
    const weight = strong ? 3 : plainAmountWord ? 1 : 2;
    candidates.push({ value: amount.value, line, at, weight });
    push({ kind: 'total', value: amount.value, weight }, line, amount.text);
  }
  // A TOTAL GST line is the tax: the other tax lines are its parts, or misreadings (an item line
  // that ends in a tax code).
  const totalTax = taxes.find((t) => /T[O0][TL][A4][L1I]/i.test(t.tax.description));
  for (const t of totalTax ? [totalTax] : taxes)
    figures.push({ kind: t.included ? 'included_tax' : 'tax', value: t.tax.amount });

  const taxSum = taxes.length > 0 ? roundMoney(taxes.reduce((s, t) => s + (t.tax.amount ?? 0), 0)) : null;
  const near = (a: number, b: number) => Math.abs(a - b) < 0.005;
  let best: { c: TotalCandidate; score: number } | null = null;
  for (const c of candidates) {
    let score = c.weight;
    score += candidates.filter((o) => o !== c && near(o.value, c.value)).length;
    if (paid !== null && change !== null && near(paid - change, c.value)) score += 2;
    else if (paid !== null && (change === null || change === 0) && near(paid, c.value)) score += 1;
    if (itemSum !== null && (near(itemSum, c.value) || (taxSum !== null && near(itemSum + taxSum, c.value))))
      score += 2;
    if (
      rounding !== null &&
      rounding !== 0 &&
      candidates.some((o) => o !== c && near(o.value + rounding!, c.value))
    ) {
      score += 2;
    }
    if (subtotal !== null && c.value + 0.005 < subtotal.value && !(rounding !== null && rounding < 0))
      score -= 1;
    if (!best || score > best.score || (score === best.score && c.at > best.c.at)) best = { c, score };
  }

  let total: Picked<number> | null = best ? { value: best.c.value, line: best.c.line } : null;
  const rounded = roundedTotal(lines, candidates, rounding, roundingAt);
  if (rounded) {
    total = rounded;
    // Printed under the rounding line, whatever its label reads as: a total of its own.
    figures.push({ kind: 'total', value: rounded.value, weight: 3 });
  }
  // A receipt that rounds the amount due (a rounding line with an amount) was paid the rounded
  // amount: cash minus change settles it when the rounded total line itself was misread or not
  // recognised (the total read is on no other line).
  const repeated = best !== null && candidates.some((o) => o !== best!.c && near(o.value, best!.c.value));
  if (
    total &&
    !repeated &&
    rounding !== null &&
    rounding !== 0 &&
    paid !== null &&
    change !== null &&
    change >= 0 &&
    paid > change
  ) {
    const settled = roundMoney(paid - change);
    if (!near(settled, total.value) && Math.abs(settled - total.value) <= MAX_ROUNDING + 0.005) {
      total = { value: settled, line: total.line };
    }
  }
  if (!total && paid !== null) {
    total = {
      value: change !== null && change > 0 && change < paid ? roundMoney(paid - change) : paid,
      line: null,
    };
  }
  if (!total && subtotal !== null) {
    total = { value: roundMoney(subtotal.value + (taxSum ?? 0)), line: subtotal.line };
  }
  return {
    total,
    subtotal,
    taxes,
    rounding,
    paid,
    change,
    figures,
    adjustments,
    fromTotalLine: best !== null || rounded !== null,
  };
}

/**
 * The amount due of a till that rounds cash payments, read from the three lines it prints: a total,
 * the rounding adjustment right under it, and the rounded amount on the line after that. The rounded
 * amount is taken whatever its label reads as (OCR often garbles it: `Tatel Ant Payabte: 8.50`) when
 * it is the total moved by exactly the adjustment (either sign: tills print it as `-0.02`, `(0.02)`
 * or `0.02`), to a multiple of 0.05.
 */
function roundedTotal(
  lines: ReceiptLine[],
  candidates: TotalCandidate[],
  rounding: number | null,
  roundingAt: number,
): Picked<number> | null {
  if (rounding === null || rounding === 0 || Math.abs(rounding) > MAX_ROUNDING + 0.005) return null;
  const above = candidates.filter((c) => c.at < roundingAt && c.at >= roundingAt - 2);
  if (above.length === 0) return null;
  const totalAbove = above[above.length - 1]!;
  for (let at = roundingAt + 1; at <= roundingAt + 2 && at < lines.length; at++) {
    const amounts = lineAmounts(lines[at]!);
    if (amounts.length === 0) continue;
    const value = amounts[amounts.length - 1]!.value;
    // In whole cents: the amount is the total moved by exactly the adjustment, to a multiple of 0.05.
    const cents = (n: number) => Math.round(n * 100);
    const movedBy = Math.abs(cents(value) - cents(totalAbove.value));
    if (movedBy !== 0 && movedBy === cents(Math.abs(rounding)) && cents(value) % 5 === 0)
      return { value, line: lines[at]! };
    return null;
  }
  return null;
}

function classifyReceipt(upper: string): string {
  if (
    /\b(?:RESTAURANT|RESTORAN|CAFE|COFFEE|BISTRO|DINER|GRILL|EATERY|TABLE|DINE|TAKE\s*AWAY|PIZZA|KOPI|FOOD\s*COURT)\b/.test(
      upper,
    )
  ) {
    return 'restaurant';
  }
  if (/\b(?:PETROL|FUEL|GASOLINE|DIESEL|PUMP|LITRES?|PETRONAS|SHELL)\b/.test(upper)) return 'fuel';
  return 'retail';
}

/**
 * Below this probability, a digit of a date printed once whose runner-up is another digit leaves the
 * date thin: another day was nearly as likely (`29.02.20` read from a faint `25.02.20`).
 */
const DOUBTED_DATE_DIGIT = 0.95;

/**
 * A total is no surer than its least sure digit; below this probability it rests on little: another
 * digit was nearly as likely (`84.00` read with its 8 at 0.50 and a 9 at 0.47), and the figures that
 * agree with it may be misread the same way, in the same faint print.
 */
const DOUBTED_TOTAL_DIGIT = 0.7;

/** A figure with a digit below this probability (another digit its runner-up) is not read surely. */
const SURE_DIGIT = 0.9;

/** The doubted digit of a figure on a line of the text, from the engine's doubts (by line number). */
function figureDoubts(ocrText: string, lineDoubts: ParseOptions['lineDoubts']) {
  const raw = ocrText.split(/\r?\n/);
  return (line: ReceiptLine | null | undefined, figure: string | null | undefined) =>
    line && figure ? doubtedDigit(raw[line.index] ?? '', figure, lineDoubts?.[line.index]) : null;
}

/**
 * Reads receipt text (as OCR or a PDF text layer gives it) into merchant, receipt, items and taxes.
 * Pure: the same text always gives the same result. Fields it cannot find are null.
 */
export function parseReceiptText(ocrText: string, opts: ParseOptions = {}): ParsedReceipt {
  // Full-width brackets, digits and letters (some engines read them off Latin print) as ASCII, a
  // full-width decimal mark closed up with its digits; a pound sign read as `f` before an amount
  // (`TOTAL f11.40`) as the sign.
  const text = closeFullWidthMarks(ocrText)
    .normalize('NFKC')
    .replace(/(?<=^|[\s:])f(?=\d+[.,]\d{2}(?!\d))/gm, '£');
  const lines = toLines(text, opts.lineConfidences, opts.lineWords);
  const upper = text.toUpperCase();
  const country = opts.country ?? guessCountry(text);
  const confidence: Record<string, number> = {};
  const note = (field: string, line: ReceiptLine | null | undefined) => {
    if (line && line.confidence !== null) confidence[field] = Math.round(line.confidence * 1000) / 1000;
  };

  // The heading's doubted letters settled by the names it is made of (known chains, shop words).
  const heading = settleHeadingLetters(lines, ocrText.split(/\r?\n/), opts.lineDoubts, opts.chains);
  const merchantReading = readMerchant(heading, country);
  // A known chain named anywhere on the receipt (logo, web address, footer) names the shop.
  const chainEvidence = opts.chains
    ? findChainEvidence(
        heading.map((l) => l.text),
        opts.chains,
      )
    : null;
  const chain =
    chainEvidence && opts.chains
      ? merchantOfChain(merchantReading.merchant.name, chainEvidence, opts.chains)
      : null;
  if (chain && chainEvidence) {
    if (chain.name !== merchantReading.merchant.name) {
      // The chain's own name, not the heading's: how sure the chain is (two lines or more naming it).
      merchantReading.nameLine = heading[chainEvidence.line]!;
      confidence['merchant.chain'] = Math.min(1, chainEvidence.score / 5);
    }
    merchantReading.merchant = {
      ...merchantReading.merchant,
      name:
        chain.name === merchantReading.merchant.name ? spacedAsChain(chain.name, opts.chains!) : chain.name,
      owning_corporation: chain.owning_corporation,
    };
  }
  note('merchant.name', merchantReading.nameLine);
  note('merchant.street_address', merchantReading.addressLines[0]);
  note('merchant.phone_number', merchantReading.phoneLine);

  const order = opts.dateOrder ?? dateOrderFor(lines, country);
  const date = pickDate(lines, order);
  note('receipt.transaction_date', date?.line);
  const dateCheck = date && checkDate(lines, date, order);
  if (dateCheck === 'repeated')
    confidence['receipt.transaction_date'] = Math.max(confidence['receipt.transaction_date'] ?? 0.7, 0.95);
  const time = pickTime(lines, date?.line ?? null, date?.value.text ?? null);
  note('receipt.transaction_time', time?.line);

  // Items lie between the header (and a column heading or the date line, when they come first)
  // and the first line of the totals.
  let start = merchantReading.headerEnd;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!;
    if (isColumnHeader(line) || (date && line === date.line)) start = i + 1;
    else if (isItemAreaEnd(line)) break;
  }
  const { items: itemReadings, discounts: itemDiscounts, end: itemsEnd } = readItemArea(lines, start);
  itemReadings.forEach((r, i) => note(`items.${i}.total_price`, r.line));
  const priced = itemReadings.map((r) => r.item).filter((i) => i.total_price !== null);
  const itemSum = priced.length > 0 ? roundMoney(priced.reduce((s, i) => s + (i.total_price ?? 0), 0)) : null;

  const doubts = figureDoubts(ocrText, opts.lineDoubts);
  const totals = readTotals(lines, itemSum, (line, figure) => {
    const doubt = doubts(line, figure);
    return doubt !== null && doubt.probability < SURE_DIGIT;
  });
  note('receipt.total_amount', totals.total?.line);
  // The total read from a total line is judged by the other figures of the summary block: what
  // agrees with it and what contradicts it make its confidence. With no total line read, the
  // figures choose it (the tender minus the change, the subtotal with tax and discounts…).
  const verdict =
    totals.total &&
    weighTotal(totals.figures, { itemSum, ...(totals.fromTotalLine ? { judge: totals.total.value } : {}) });
  if (verdict && verdict.value !== null && !totals.fromTotalLine)
    totals.total = { value: verdict.value, line: null };
  if (verdict)
    confidence['receipt.total_amount'] = totalConfidence(verdict, confidence['receipt.total_amount']);
  note('receipt.subtotal', totals.subtotal?.line);
  const taxes = totals.taxes.map((t) => t.tax);
  totals.taxes.forEach((t, i) => note(`taxes.${i}.amount`, t.line));
  const totalTaxLine = totals.taxes.find((t) => /T[O0][TL][A4][L1I]/i.test(t.tax.description));
  const total_tax = totalTaxLine
    ? totalTaxLine.tax.amount
    : taxes.length > 0
      ? roundMoney(taxes.reduce((s, t) => s + (t.amount ?? 0), 0))
      : null;

  // A date read once, or a total, whose digit the engine doubted rests on that digit.
  const dateDoubt = dateCheck === 'repeated' ? null : doubts(date?.line, date?.value.text);
  if (dateDoubt && dateDoubt.probability < DOUBTED_DATE_DIGIT)
    confidence['receipt.transaction_date'] = Math.min(
      confidence['receipt.transaction_date'] ?? 0.7,
      THIN_CONFIDENCE,
    );
  const totalLine = totals.total?.line;
  const totalText =
    totalLine && findAmounts(totalLine.text).find((a) => a.value === totals.total?.value)?.text;
  const totalDoubt = doubts(totalLine, totalText);
  // A figure read surely that agrees with the total vouches for it whatever its own digits.
  if (totalDoubt && !verdict?.surelyAgreed && confidence['receipt.total_amount'] !== undefined)
    confidence['receipt.total_amount'] = Math.min(
      confidence['receipt.total_amount'],
      totalDoubt.probability < DOUBTED_TOTAL_DIGIT ? THIN_CONFIDENCE : totalDoubt.probability,
    );

  // A row whose amount its own arithmetic and the receipt's sums contradict has it read back; each
  // item's amount is then as sure as its row's arithmetic and the items' sum make it.
  const sums = [totals.subtotal?.value ?? null, totals.total?.value ?? null];
  const readings = amountsFromArithmetic(itemReadings, sums);
  const items = readings.map((r) => r.item);
  itemConfidences(readings, sums).forEach((c, i) => {
    if (c !== null) confidence[`items.${i}.total_price`] = Math.round(c * 1000) / 1000;
  });
  const contradicted: ContradictedField[] = [];
  if (verdict && verdict.contradictions.length > 0) contradicted.push('receipt.total_amount');
  if (dateCheck === 'contradicted') contradicted.push('receipt.transaction_date');
  const currency = receiptCurrency(text, country);
  const total_amount = totals.total?.value ?? null;
  const adjustments = receiptAdjustments({
    printed: totals.adjustments,
    itemDiscounts,
    itemsEnd,
    total: total_amount,
    totalAt: totals.total?.line ? lines.indexOf(totals.total.line) : lines.length,
    figures: totals.figures,
  });
  return {
    receipt: {
      doc_type: /\bINVOICE\b|TAX\s*INV/.test(upper) ? 'invoice' : 'receipt',
      receipt_type: chain?.category ?? classifyReceipt(upper),
      country_region: country,
      total_amount,
      subtotal: totals.subtotal?.value ?? null,
      currency_code: currency,
      total_tax,
      transaction_date: date?.value.iso ?? null,
      transaction_time: time?.value ?? null,
      total_checks_out: totalChecksOut(
        total_amount,
        items,
        total_tax,
        totals.subtotal?.value ?? null,
        adjustments,
      ),
      ...(adjustments.length > 0 ? { adjustments } : {}),
    },
    merchant: merchantReading.merchant,
    items,
    taxes,
    confidence,
    ...(contradicted.length > 0 ? { contradicted } : {}),
  };
}
