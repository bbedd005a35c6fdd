import {
  findAmounts,
  findDates,
  findTimes,
  roundMoney,
  type AmountMatch,
  type AnalyzedItem,
} from '@receipts/core';
import {
  CHANGE_RE,
  COUNT_RE,
  DISCOUNT_RE,
  DOC_TITLE_RE,
  PAYMENT_RE,
  ROUNDING_RE,
  SERVICE_RE,
  STRONG_TOTAL_RE,
  SUBTOTAL_RE,
  SUMMARY_RE,
  TAX_RE,
  TOTAL,
  TOTAL_RE,
  type ReceiptLine,
} from './receipt-lines';
import {
  findItemLayout,
  withoutCodeColumn,
  withoutOverlappingSpecks,
  type ItemLayout,
} from './item-geometry';

/** An item and the line its price was read from. */
export interface ItemReading {
  item: AnalyzedItem;
  line: ReceiptLine;
}

/** Column headings above the items (`QTY DESCRIPTION PRICE AMOUNT`, its I read as 1: `QTY 1TEM TOTAL`). */
const COLUMN_HEADER_RE =
  /\b(?:DESCRIPTION|DESC|[I1]TEM\s*NAME|[I1]TEMS?|PRODUCT|ARTICLE)\b.*\b(?:QTY|QTY\.|PRICE|AMOUNT|AMT|TOTAL|U\/?P)\b|\b(?:QTY|QNTY|QUANTITY)\b.*\b(?:ITEM|DESC|DESCRIPTION|PRICE|AMOUNT|AMT)\b/;
/** Words of a column heading's second line. */
const HEADER_WORD_RE = /\b(?:QTY|RM|PRICE|AMOUNT|AMT|DISC(?:OUNT)?|TAX|CODE|UNIT|U\/P|TOTAL)\b/;
/** Words of column headings, for lines made of nothing else (see {@link isHeadingWords}). */
const HEADING_WORDS = [
  'DESCRIPTION',
  'DESC',
  'ITEM',
  'ITEMS',
  'PRODUCT',
  'ARTICLE',
  'QTY',
  'QUANTITY',
  'RM',
  'PRICE',
  'UNIT',
  'DISCOUNT',
  'DISC',
  'AMOUNT',
  'AMT',
  'CODE',
  'TAX',
  'TOTAL',
  'UP',
];

/**
 * Whether a line is nothing but column-heading words, whatever spaces the engine read between them
 * (`Descript ion Amount(RM)`, `Unit Price Unit Discount Amount Code`) and with one letter misread in
 * words of four letters or more (`RM Cade`): a heading, never part of an item's name.
 */
export function isHeadingWords(text: string): boolean {
  const letters = text.toUpperCase().replace(/[^A-Z]/g, '');
  if (letters.length < 4) return false;
  const fits = (at: number, word: string) => {
    const part = letters.slice(at, at + word.length);
    if (part.length !== word.length) return false;
    let differences = 0;
    for (let i = 0; i < word.length; i++) if (part[i] !== word[i]) differences++;
    return differences === 0 || (word.length >= 4 && differences === 1);
  };
  const reached = [true, ...Array.from({ length: letters.length }, () => false)];
  for (let at = 0; at < letters.length; at++) {
    if (!reached[at]) continue;
    for (const word of HEADING_WORDS) if (fits(at, word)) reached[at + word.length] = true;
  }
  return reached[letters.length]!;
}

/** Lines inside the item area that are bookkeeping, not goods. */
const NOT_AN_ITEM_RE =
  /\d\s*UHR\b|\b(?:CASHIER|SALESPERSON|STAFF|OPERATOR|TERMINAL|POS\s*\d|DOC\s*NO|INV(?:OICE)?\s*(?:NO|#)|RECEIPT\s*(?:NO|#)|BILL\s*(?:NO|#)|TABLE\b|COUNTER|MEMBER|CARD\s*NO|APPROVAL|AUTH|REF(?:ERENCE)?\s*(?:NO|#))/;
/**
 * A tax mark glued to the amount before it at the end of a line (`0,89C`, `15.50SR`, `2,34*B`, read
 * `2,34xB` or `2,34x8`, `53.00s`, a tax class and a second mark `3,49BW`): tax-class letters, not
 * units (`1.25L`, `500G`, `0,75CL` stay as they are) nor a time of day (`12.30PM`).
 */
const GLUED_MARK_RE = /(\d[.,]\d{2})(?:[xX*][A-Z0-9]|[A-FSTVZsz]|[SZ]R|(?!AM|CL|CM|DL|DZ|FT)[A-FSTVZ][A-Z])$/;

/** A line's text with a tax mark glued to its last amount set apart from it (see {@link GLUED_MARK_RE}). */
function unglueMark(text: string): string {
  return text.trimEnd().replace(GLUED_MARK_RE, '$1');
}

/** Digits an engine reads for a tax-code letter (`1,79 8` for `1,79 B`), and the letter each stands for. */
const LETTER_OF_DIGIT: Readonly<Record<string, string>> = { '8': 'B', '5': 'S', '2': 'Z' };

/** A row's tax-code letter after its amount (`1,99 B`, `0,89C`, `2,34*B`). */
const CODE_LETTER_RE = /\d[.,]\d{2}\s*\*?([A-Z])$/;

/** The tax-code letters that two or more rows of the item area print after their amount. */
function codeLetters(lines: readonly ReceiptLine[]): Set<string> {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const letter = CODE_LETTER_RE.exec(line.text.trimEnd())?.[1];
    if (letter) counts.set(letter, (counts.get(letter) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, n]) => n >= 2).map(([letter]) => letter));
}

/**
 * A tax-code letter read as the digit it looks like after a row's amount (`1,79 8` among rows that
 * print `1,99 B`): the letter, where other rows of the items print it in that column.
 */
function codeLetterRead(text: string, letters: ReadonlySet<string>): string {
  return text.replace(/(\d[.,]\d{2})\s(\d)$/, (all, amount: string, digit: string) => {
    const letter = LETTER_OF_DIGIT[digit];
    return letter !== undefined && letters.has(letter) ? `${amount} ${letter}` : all;
  });
}

/** Letters an engine reads for digits in printed amounts (`1,4D`, `2.B5`), and the digit each stands for. */
const DIGIT_OF_LETTER: Readonly<Record<string, string>> = {
  O: '0',
  o: '0',
  D: '0',
  Q: '0',
  B: '8',
  S: '5',
  I: '1',
  l: '1',
  Z: '2',
};
const AMOUNT_CHAR = `[\\d${Object.keys(DIGIT_OF_LETTER).join('')}]`;
/**
 * The last figure of a row shaped like an amount with letters among its digits and tax marks after
 * it (`1,4D CW`, `2.B5s`). After a ringgit mark the currency rule reads it (see {@link currencyAmount}).
 */
const DAMAGED_AMOUNT_RE = new RegExp(
  String.raw`(?<=^|\s)(${AMOUNT_CHAR}{1,3})([.,])(${AMOUNT_CHAR}{2})((?:[xX*][A-Z]|[A-FSTVZsz]|[SZ]R)?)(\s+\*?[A-Z]{1,3})?$`,
);

/** The digits of a figure an engine read with letters among them (`1,4D` → `1,40`). */
const withDigits = (text: string) => text.replace(/\D/g, (c) => DIGIT_OF_LETTER[c] ?? c);

/**
 * A row with no amount whose last figure, in the amount column, is an amount with one letter read
 * for a digit (`ORANGENSAFT 1,4D CW`), with that digit read back. Any other row, and a figure with
 * more than one letter, as it is: the row is then no item.
 */
function amountLetterRead(text: string, line: ReceiptLine, layout: ItemLayout): string {
  if (findAmounts(text).length > 0) return text;
  const m = DAMAGED_AMOUNT_RE.exec(text);
  if (!m) return text;
  const [, whole, point, decimals, glued, codes] = m;
  const misread = (whole! + decimals!).replace(/\d/g, '').length;
  if (misread !== 1 || !inAmountColumn(line, layout)) return text;
  const amount = `${withDigits(whole!)}${point}${withDigits(decimals!)}`;
  return `${text.slice(0, m.index)}${amount}${glued ? ` ${glued}` : ''}${codes ?? ''}`;
}

/** Whether a line's last word reaches the amount column (from the boxes; true without them). */
function inAmountColumn(line: ReceiptLine, layout: ItemLayout): boolean {
  const last = line.words?.[line.words.length - 1];
  const { amountRight, charWidth } = layout;
  if (!last || amountRight === null || charWidth === null) return true;
  return last.box[2] >= amountRight - 1.5 * charWidth;
}

/** A short word shaped like a figure with a decimal mark, however damaged (`RNS.98 s`, `1,4D CW`). */
const FIGURE_WORD_RE = /^(?=(?:\D*\d){2})(?=.*\d[.,]|.*[.,]\d)\S{1,7}(?:\s\S{1,3})?$/;

/** Whether a line's last word, apart from the words before it, is a figure in the amount column (from the boxes). */
function unreadAmount(line: ReceiptLine, layout: ItemLayout): boolean {
  const words = line.words;
  return (
    words !== undefined &&
    words.length >= 2 &&
    FIGURE_WORD_RE.test(words[words.length - 1]!.text.trim()) &&
    layout.amountRight !== null &&
    inAmountColumn(line, layout)
  );
}

/** Tax codes and markers printed after the price (`SR`, `ZR`, `*S`, `T`, `A`). */
const TRAILING_MARKS = /^\s*(?:\*?\s*[A-Z]{1,3}\s*\*?|\*|%)?\s*$/;
/** A unit printed between a count or weight and its times sign (`2 Stk x`, `0,8 kg x`). */
const MEASURE_UNIT = String.raw`(?:(?:STK|ST|KG|L)\.?\s*(?=[xX×*]))?`;
/** A quantity before the unit price, a unit between them (`2 x`, `3 PCS x`, `2 Stk x`, `0,8 kg x`). */
const QTY_TIMES = new RegExp(
  String.raw`(?:^|\s)(\d{1,4}(?:[.,]\d{1,3})?)\s*${MEASURE_UNIT}(?:[xX×*]|PCS?\s*[xX*]?|@)\s*$`,
  'i',
);
/** A row's text ending in a quantity and a times sign, a unit between them (`DESC 2 x`, `2 Stk x`). */
const ENDS_TIMES = new RegExp(String.raw`\d\s*${MEASURE_UNIT}[xX×*]\s*$`, 'i');

/**
 * German summary, payment and tax-table words that end the goods (`ZU ZAHLEN EURO 24,23`,
 * `BARGELD 40,00`, `KARTENZAHLUNG 10,90`, `ZURÜCK 15,77`, `GEGEBEN ec-Karte`, `MWST Netto Brutto`,
 * `Posten: 13`, `ANZAHL ARTIKEL 19`), as OCR reads them (umlauts often without their dots).
 */
const GERMAN_SUMMARY_RE =
  /\bZU\s*ZAHLEN\b|\bBARGELD\b|\bKARTENZAHLUNG\b|\bZUR[UÜ]CK\b|\bR[UÜ]CKGELD\b|\bGEGEBEN\b|\bEC[\s-]*KARTE\b|\bMWST\b.*\bNETTO\b|\bPOSTEN\s*:?\s*\d|\bANZAHL\s*ARTIKEL\b/;

export function isItemAreaEnd(line: ReceiptLine): boolean {
  if (isColumnHeader(line)) return false;
  const u = line.upper;
  return (
    GERMAN_SUMMARY_RE.test(u) ||
    SUBTOTAL_RE.test(u) ||
    STRONG_TOTAL_RE.test(u) ||
    (TOTAL_RE.test(u) && (!/\bAMOUNT\b|\bAMT\b/.test(u) || TOTAL_AMOUNT_RE.test(u))) ||
    ROUNDING_RE.test(u) ||
    COUNT_RE.test(u) ||
    ((TAX_RE.test(u) || GLUED_TAX_RE.test(u)) &&
      findAmounts(line.text).length > 0 &&
      !/\b[SZ]R\b\s*$/.test(u)) ||
    ((PAYMENT_RE.test(u) || CHANGE_RE.test(u)) && findAmounts(line.text).length > 0) ||
    SUMMARY_RE.test(u)
  );
}

/** `Total Amount: 8.20`: the amount word after a total word, with a figure (a heading has none). */
const TOTAL_AMOUNT_RE = new RegExp(String.raw`${TOTAL}\s*(?:AMOUNT|AMT)\b.*\d[.,]\d{2}`);

/** A tax line whose words an engine ran together: `VATINCLUDED20%`, `GST6%`. */
const GLUED_TAX_RE = /^(?:GST|VAT|SST|TAX)(?=INCL|EXCL|\d|@|%)/;

/** Column headings print no figures: `Item(s) : 5  Qty(s) : 13` is a count under the items. */
export function isColumnHeader(line: ReceiptLine): boolean {
  return (
    COLUMN_HEADER_RE.test(line.upper) && findAmounts(line.text).length === 0 && !/:\s*\d/.test(line.text)
  );
}

/**
 * A description cleaned of a leading barcode or item code and trailing tax marks, with a zero among
 * the letters of a word read back as the letter O (`COCA-C0LA`) and a number run on from a word
 * split from it (`TEA80`).
 */
function tidyDescription(text: string): string {
  return (
    text
      .replace(/^\d{6,}\s+/, '')
      // A tax code and an item code before a hyphen (`SR I00000015-Vegetable`).
      .replace(/^(?:[A-Z]{1,3}\s+)?[A-Z]{0,3}\d{5,}\s*-\s*(?=\S)/, '')
      // A tax code before the name, set off by a colon (`SR:TEPUNG`, `ZRL:IKAN`).
      .replace(/^[A-Z]{1,3}\s*:\s*(?=\p{L}{2})/u, '')
      .replace(/\b(?=[A-Z]*0)[A-Z0]*[A-Z][A-Z0]*\b/g, (word) => word.replace(/0/g, 'O'))
      // An initial O read as a zero before the point of an abbreviation (`0.C JUMBO`).
      .replace(/(?<![\d.,])0(?=\.[A-Z])/g, 'O')
      // A size or count run on from the word before it (`TEA80`), as engines that drop spaces read it.
      .replace(/\b([A-Z]{3,})(\d{2,})\b/g, '$1 $2')
      .replace(/\s+\*?[A-Z]?\s*\*?$/, (m) => (/^\s+[A-Z]$/.test(m) ? m : ''))
      .replace(/[\s:;,|*=~-]+$/, '')
      .replace(/^[\s:;,|*=~.-]+/, '')
      .trim()
  );
}

function hasWords(text: string): boolean {
  return /\p{L}{2,}/u.test(text);
}

function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= 0.011;
}

/** The last of the whole counts printed between a unit price and an amount that gives the amount. */
function countsBetween(between: string, unit: number, total: number): number | null {
  if (!/^(?:\s+-?\d{1,4})+\s*$/.test(between)) return null;
  const counts = between.trim().split(/\s+/).map(Number);
  // The last count is the sale; a sale of 0 (all returned) is the quantity of an amount of 0.
  return [...counts].reverse().find((n) => (n !== 0 || total === 0) && near(n * unit, total)) ?? null;
}

/**
 * A unit price whose whole part was lost or left out (`.97`, `@.72`) before count columns (`O.C JUMBO
 * .97 5 3 2 5.94`): the amount over the last count that gives a price with those cents is the unit
 * price, and that count the quantity. Null where no count does.
 */
function bareCentsPrice(
  head: string,
  total: number,
): { head: string; quantity: number; unitPrice: number } | null {
  const row = /(?:^|\s|@)\.(\d{2})((?:\s+-?\d{1,4}\.?)+)\s*$/.exec(head);
  if (!row || total === 0) return null;
  const counts = row[2]!
    .trim()
    .split(/\s+/)
    .map((c) => Number(c.replace(/\.$/, '')));
  const quantity = [...counts].reverse().find((n) => n !== 0 && total / n > 0);
  if (quantity === undefined) return null;
  const unitPrice = roundMoney(total / quantity);
  if (!near(Math.round((unitPrice % 1) * 100), Number(row[1]))) return null;
  return { head: head.slice(0, row.index).replace(/@$/, ''), quantity, unitPrice };
}

/**
 * The count of a returns row read without the minus of its amount: the last count between the unit
 * price and the amount is negative and, times the unit price, gives the amount with the sign turned.
 */
function returnedCount(between: string, unit: number, total: number): number | null {
  if (total <= 0 || !/^(?:\s+-?\d{1,4})+\s*$/.test(between)) return null;
  const last = Number(between.trim().split(/\s+/).pop());
  return last < 0 && near(-last * unit, total) ? last : null;
}

/**
 * The quantity of a row whose counts between the unit price and the amount (digits, or a digit read
 * as a letter) do not give the amount: the amount over the unit price, when it is a whole number.
 */
function wholeCount(between: string, unit: number, total: number): number | null {
  if (unit <= 0 || !/^(?:\s+(?:-?\d{1,4}|[A-Z]))+\s*$/i.test(between)) return null;
  const q = Math.round(total / unit);
  return q !== 0 && Math.abs(q) <= 999 && near(q * unit, total) ? q : null;
}

interface PriceParts {
  description: string;
  quantity: number | null;
  unitPrice: number | null;
  total: number;
}

/**
 * Whether a row of amount 0 is an item: one that prints its count and unit price (a free gift at
 * `1 x 0.00`, goods delivered and all taken back, `2.78 2 2 0 0.00`), not a bare `0.00` line. A
 * row of figures takes its name from the lines above it, as any other.
 */
function pricedAtZero(parts: PriceParts): boolean {
  return parts.quantity !== null && parts.unitPrice !== null;
}

/**
 * Splits a priced line into description, quantity, unit price and line total. Reads
 * `DESC 2 x 1.50 3.00`, `DESC 2 @ 1.50 3.00`, `3 DESC @7.00 21.00`, `DESC 1.0 12.00 12.00`,
 * `DESC QTY 2 3.00`, `2 DESC 3.00`, `7.90*3 23.70` and `DESC 3.00`.
 */
function splitPricedLine(text: string, amounts: AmountMatch[]): PriceParts | null {
  const last = amounts[amounts.length - 1]!;
  const after = text.slice(last.index + last.text.length);
  if (!TRAILING_MARKS.test(after.toUpperCase())) return null;
  const total = last.value;
  let head = text.slice(0, last.index).trimEnd();
  let quantity: number | null = null;
  let unitPrice: number | null = null;

  if (amounts.length >= 2) {
    const unit = amounts[amounts.length - 2]!;
    const beforeUnit = text.slice(0, unit.index);
    const between = text.slice(unit.index + unit.text.length, last.index);
    const times = QTY_TIMES.exec(beforeUnit);
    const qtyAfter = /^\s*[xX*×]\s*(\d{1,4}(?:\.\d{1,3})?)\s*$/.exec(between);
    const bareQty = /(?:^|\s)(\d{1,4}(?:[.,]\d{1,3})?)\s*$/.exec(beforeUnit);
    if (times) {
      quantity = Number(times[1]!.replace(',', '.'));
      unitPrice = unit.value;
      head = beforeUnit.slice(0, times.index);
    } else if (qtyAfter) {
      quantity = Number(qtyAfter[1]);
      unitPrice = unit.value;
      head = beforeUnit;
    } else if (bareQty && near(Number(bareQty[1]!.replace(',', '.')) * unit.value, total)) {
      quantity = Number(bareQty[1]!.replace(',', '.'));
      unitPrice = unit.value;
      head = beforeUnit.slice(0, bareQty.index);
    } else if (/^\s*$/.test(between) && near(unit.value, total)) {
      unitPrice = unit.value;
      head = beforeUnit;
    } else if (bareQty && /^\s*$/.test(between) && /^[1-9]\d{0,2}$/.test(bareQty[1]!) && unit.value > 0) {
      // Quantity, unit price and amount that disagree (`20  7.00  14.00`, a `2.0` misread): read as
      // printed, and the item's confidence says the row does not add up.
      quantity = Number(bareQty[1]);
      unitPrice = unit.value;
      head = beforeUnit.slice(0, bareQty.index);
    } else if (returnedCount(between, unit.value, total) !== null) {
      // A returns row whose amount lost its minus sign (`TWIG 1.33 0 9 -9 11.97`): the sale count
      // is negative, and so is the amount it gives.
      quantity = returnedCount(between, unit.value, total);
      unitPrice = unit.value;
      head = beforeUnit;
      return { description: tidyDescription(head), quantity, unitPrice, total: -total };
    } else if (countsBetween(between, unit.value, total) !== null) {
      // Delivered, returned and sold counts between the unit price and the amount: the quantity is
      // the count that the arithmetic bears out (`O.C. WHITE 2.13 10 1 0 9 19.17`).
      quantity = countsBetween(between, unit.value, total);
      unitPrice = unit.value;
      head = beforeUnit;
    } else if (wholeCount(between, unit.value, total) !== null) {
      // Count columns whose sale count was misread or left blank (`O.C.WHITE 2.13 5 0 6.39`,
      // `2.97 A 0 -5.94`): the quantity is the amount over the unit price, when that is whole.
      quantity = wholeCount(between, unit.value, total);
      unitPrice = unit.value;
      head = beforeUnit;
    } else if (amounts.length === 2 && /^\s*[A-Z]{0,3}\s*$/i.test(between)) {
      // `DESC 12.00 2 24.00` is handled above; here a discount or deposit column: keep the last.
      head = beforeUnit;
    }
  } else {
    const times = QTY_TIMES.exec(head);
    if (times && ENDS_TIMES.test(head)) {
      // `DESC 2 x 3.00`: the amount is the unit price and the total is the product.
      quantity = Number(times[1]!.replace(',', '.'));
      unitPrice = total;
      head = head.slice(0, times.index);
      const description = tidyDescription(head);
      return { description, quantity, unitPrice, total: roundMoney(quantity * unitPrice) };
    }
  }

  const bare = quantity === null ? bareCentsPrice(head, total) : null;
  if (bare) ({ head, quantity, unitPrice } = bare);
  const qtyLabel = /\bQTY\s*:?\s*(\d{1,4})\b/i.exec(head);
  if (quantity === null && qtyLabel) {
    quantity = Number(qtyLabel[1]);
    head = head.replace(qtyLabel[0], ' ');
  }
  // A small integer before the description is the quantity column (`3 FISHBALL NOODLE @7.00`).
  const leading = /^(\d{1,3})\s+(?=\S*\p{L})/u.exec(head);
  if (leading && quantity === null) {
    quantity = Number(leading[1]);
    head = head.slice(leading[0].length);
  }
  // Count columns after the name of a row without a unit price (`CR-CHOCLT 0 20 20 14.40`): the
  // last count is the quantity.
  const counts = /(?:\s+-?\d{1,3}){2,}\s*$/.exec(head);
  if (counts && quantity === null && hasWords(head.slice(0, counts.index))) {
    const last = Number(counts[0].trim().split(/\s+/).pop());
    head = head.slice(0, counts.index);
    if (last !== 0 && Number.isInteger((Math.round((total / last) * 100) / 100) * 100)) quantity = last;
  }
  const at = /\s@\s*$/.exec(head);
  if (at) head = head.slice(0, at.index);
  if (unitPrice === null && quantity !== null && quantity > 0) unitPrice = roundMoney(total / quantity);
  return { description: tidyDescription(head), quantity, unitPrice, total };
}

/**
 * Units and currency marks printed in a row's quantity and price columns (`3 UNIT*`, `122 pcs @`,
 * `1.000 STK`, `2 Rolle x`, `RM 3.20`), in English, Malay, Indonesian and German: not an item's name.
 */
const COLUMN_WORDS = new Set(
  'PC PCS PCE PCES UNIT UNITS PKT PKTS PK PACK PACKS EA EACH KG KGS G GR L ML LTR QTY STK ST STCK STÜCK STUECK ROLLE ROLLEN BOX BTL BOTOL CTN SET SETS PAX PRS PAIR BKS BUNGKUS BUAH BH KOTAK BIJI LUSIN RM MYR RP IDR EUR EURO USD SGD'.split(
    ' ',
  ),
);

/**
 * Whether a row's text before its prices names no item: only quantities, units, currency marks, codes
 * and punctuation (`3UNIT*`, `122 pcs @`, `RM3.20 10.00`, `9072351 2X`). Such a row is the figures
 * of the name printed above it.
 */
function namesNothing(head: string): boolean {
  return head
    .split(/[\s/]+/)
    .filter((w) => (w.match(/\d/g)?.length ?? 0) < 4 || RUN_ON_WORD_RE.test(w))
    .map((w) => w.replace(/[^\p{L}]/gu, '').toUpperCase())
    .every(
      (w) => w.length < 2 || COLUMN_WORDS.has(w) || (w.endsWith('X') && COLUMN_WORDS.has(w.slice(0, -1))),
    );
}

/**
 * A word an engine ran into a number (`0.934ALUMNIUMROD`, `H/CA4400'S`): a run of letters that
 * makes it more than a code of a few letters and digits (`SR-9556404118038`, `I00100000035-1`).
 */
const RUN_ON_WORD_RE = /\p{L}{3,}/u;

/** A quantity at the start of a row of figures (`3UNIT*`, `1.000 STK`, `2Rollex`, `11 UNIT *`). */
function leadingQuantity(head: string): number | null {
  const m = /^\s*(\d{1,4}(?:[.,]\d{1,3})?)(?!\d)/.exec(head);
  if (!m || /^\d{5,}/.test(head.trim())) return null;
  const q = Number(m[1]!.replace(',', '.'));
  return q > 0 ? q : null;
}

/**
 * A line that is a stock, article or barcode number, with at most a label before it (`Artikel
 * 50306244 22237`, `Item No.: 30001640`, `Barcode: 10182079`, `FZ02-6/54`, `ART/EAN 4002245701618`):
 * printed between an item's name and its figures, never part of the name.
 */
export function isCodeLine(text: string): boolean {
  // A space read after a code's hyphen (`AR62- 12/312`) is no gap between words.
  const tokens = text
    .trim()
    .replace(/(?<=\d)-\s+(?=\d)/g, '-')
    .split(/\s+/);
  const code = tokens.findIndex((t) => (t.match(/\d/g)?.length ?? 0) >= 4);
  if (code < 0) return false;
  const words = tokens.filter((t) => /\p{L}{3,}/u.test(t) && !/\d/.test(t));
  // After a label the code is a plain number (`Artikel 50306244`, `Item No.:30001635`); `BELT
  // 5202-3#*VS` is a name.
  if (code > 0 && !/^(?:\p{L}+[.:]+)?\d+[:.]?$/u.test(tokens[code]!)) return false;
  const after =
    tokens.slice(code + 1).some((t) => /\p{L}{2,}/u.test(t)) || /\d\S*\p{L}{3,}/u.test(tokens[code]!);
  return words.length <= 1 && !after;
}

/**
 * The text of an item row as its columns give it: without a tax-code column right of the amounts
 * (from the boxes; see {@link withoutCodeColumn}), or, without boxes, without a one- or two-digit
 * code that two or more rows print after their amount, and with a code digit run on to the amount
 * or printed after it (`2,00 14,99 29,981`, `2,00 14,99 29,98 1`) set apart where quantity × unit
 * price gives the amount without it.
 */
function rowText(line: ReceiptLine, layout: ItemLayout, digitCodeColumn: boolean): string {
  // A space read into the amount at the end of the row (`49. 99`, `2. 20 ZRL`), or into the unit
  // price before it (`1x 2. 20 2.20`), is closed up.
  let text = currencyAmount(withoutCodeColumn(withoutOverlappingSpecks(line), layout))
    // A currency mark between a count's times sign and the unit price (`2XR2.45`, `@2XRM6.99`).
    .replace(/(^|\s)@?(\d{1,4}\s*[xX×*])\s*R[MN]?\s*(?=\d{1,5}[.,]\d{2})/, '$1$2 ')
    .replace(/(\d[.,])\s(\d{2})(?=(?:\s+[A-Z]{1,3})?$)/, '$1$2')
    .replace(/(\d[.,])\s(\d{2})(?=\s+\d+[.,]\d{2}(?:\s+[A-Z]{1,3})?$)/, '$1$2')
    // A one-letter column (department, tax class) printed against the amount: `1 D20.00 SR`.
    .replace(/(?<=^|\s)([A-WYZ])(?=\d{1,5}[.,]\d{2}(?!\d))/, '$1 ');
  if (digitCodeColumn) text = text.replace(/(\d[.,]\d{2})\s+\d{1,2}$/, '$1');
  text = perUnitPrice(text);
  // A unit price and an amount run together where their columns touch (`0.2525.00`): two amounts,
  // each with its two decimals and the same decimal mark (`1,234.56` is one amount).
  text = text.replace(
    /(?<![\d.,])(\d{1,5})([.,])(\d{2})(\d{1,6})\2(\d{2})(?=\s*(?:[A-Z]{1,3})?\s*$)/,
    '$1$2$3 $4$2$5',
  );
  // Quantity, unit price and amount run together (`2X5.3010.60`): split where the product is the amount.
  text = text.replace(
    /\b(\d{1,3})\s*[xX]\s*(\d{1,5}[.,]\d{2})(\d{1,6}[.,]\d{2})$/,
    (all, q: string, u: string, t: string) =>
      near(Number(q) * Number(u.replace(',', '.')), Number(t.replace(',', '.'))) ? `${q} x ${u} ${t}` : all,
  );
  const runOn = /(\d[.,]\d{2}) ?(\d{1,2})$/.exec(text);
  if (runOn) {
    const cut = text.slice(0, runOn.index + runOn[1]!.length);
    const a = findAmounts(cut);
    const [q, u, t] = a.slice(-3).map((x) => x.value);
    if (a.length >= 3 && near(q! * u!, t!)) return cut;
    // A tax mark read as a digit after a row's amount (`1 3.60 3.605` beside `1 5.40 5.40s`): the
    // whole quantity, the unit price and the amount without it agree.
    const row = /(?:^|\s)(\d{1,3})\s+(\d{1,5}[.,]\d{2})\s+(\d{1,6}[.,]\d{2})$/.exec(cut);
    const money = (x: string) => Number(x.replace(',', '.'));
    if (row && Number(row[1]) > 0 && near(Number(row[1]) * money(row[2]!), money(row[3]!))) return cut;
  }
  return text;
}

/**
 * The amount at the end of a row after its ringgit mark, as an engine misreads it: the mark's M as N
 * (`RN3.79`), a digit as the letter it looks like (`RM2.B5`, `RNS.98`), and a tax mark read as a
 * digit after the two decimals (`RN6.855` beside `RN4.65S`), written back as `RM3.79`.
 */
function currencyAmount(text: string): string {
  return text.replace(CURRENCY_AMOUNT_RE, (all, whole: string, cents: string) => {
    const digits = (whole + cents).replace(/[^\d]/g, '');
    if (digits.length < 2) return all;
    return `RM${withDigits(whole)}.${withDigits(cents)}`;
  });
}
const CURRENCY_AMOUNT_RE = new RegExp(
  String.raw`(?<![\p{L}\d])R[MN]\s?(${AMOUNT_CHAR}{1,5})[.,](${AMOUNT_CHAR}{2})[52]?(?=\s*(?:[A-Z*]{1,2}|[a-z])?\s*$)`,
  'u',
);

/**
 * A price per kilogram, litre or piece printed after a weight or a count (`0,144kg 1,99 EUR/kg`,
 * `0,812 kg x 1,69 EUR/kg`, `42,18 l x 1,799 EUR/l 75,88 A`) written as the unit price of a measure
 * row (`0,144kg x 1,99`), so that it is read as the unit price and not as the row's amount.
 */
function perUnitPrice(text: string): string {
  return text.replace(
    /\s*[xX×*]?\s*(\d{1,5}[.,]\d{2,3})\s*(?:EUR|EURO|€)?\s*\/\s*(?:KG|L|LTR|STK|ST)\b\.?/i,
    ' x $1',
  );
}

/** Whether `upper` starts two characters or more right of where `lower` starts (from their boxes). */
function indentedOver(upper: ReceiptLine, lower: ReceiptLine, layout: ItemLayout): boolean {
  const a = upper.words?.[0];
  const b = lower.words?.[0];
  return (
    a !== undefined &&
    b !== undefined &&
    layout.charWidth !== null &&
    a.box[0] - b.box[0] >= 2 * layout.charWidth
  );
}

/** Whether a row's text is a row of figures: prices after nothing but quantities, units and codes. */
function isFiguresRow(text: string): boolean {
  const amounts = findAmounts(text);
  if (amounts.length === 0) return false;
  const parts = splitPricedLine(text, amounts);
  return parts !== null && (!hasWords(parts.description) || namesNothing(parts.description));
}

/**
 * Whether the receipt prints each item's name under its row of figures (`1x 000002781709 15.50` /
 * `BIO ZIP POWDER`) rather than above it: the last row of figures of the items has a name line
 * under it (code lines aside) before the totals.
 */
function namesBelowFigures(lines: ReceiptLine[], texts: string[], start: number, end: number): boolean {
  let last = -1;
  for (let at = start; at < end; at++) if (isFiguresRow(texts[at]!)) last = at;
  if (last < 0) return false;
  const next = lines.slice(last + 1, end).findIndex((l) => !isCodeLine(l.text));
  if (next < 0) return false;
  const at = last + 1 + next;
  return hasWords(lines[at]!.text) && findAmounts(texts[at]!).length === 0;
}

/**
 * The amount of a discount printed among the items, under the item it is taken off (`Stat-oreat
 * Saving -9.60`, `DISC 30% @1.75 --0.75`): the last negative amount of a discount line, as a
 * negative amount; null for any other line.
 */
export function itemDiscount(line: ReceiptLine): number | null {
  if (!DISCOUNT_RE.test(line.upper)) return null;
  const negative = findAmounts(line.text).filter((a) => a.value < 0);
  return negative.length > 0 ? negative[negative.length - 1]!.value : null;
}

/**
 * Whether a line among the items is a document title (`TAX INVOICE`, `CUSTOMER COPY`). `COPY`,
 * `ORIGINAL` and `ORDER` are words of product names too (`70g P.Copy 450'S`, `350ML CALPIS
 * ORIGINAL`, `RESTAURANT ORDER CHIT NCR`): they make a title only on a line with no figure and no
 * other word than a title's.
 */
function isDocumentTitle(upper: string): boolean {
  if (!DOC_TITLE_RE.test(upper)) return false;
  const rest = upper.replace(/\b(?:COPY|ORIGINAL|ORDER)\b/g, ' ');
  if (rest === upper || DOC_TITLE_RE.test(rest)) return true;
  return !/\d/.test(rest) && (rest.match(/\p{L}{2,}/gu) ?? []).every((w) => TITLE_COMPANIONS.has(w));
}

/** Words printed with COPY, ORIGINAL or ORDER in a document title (`CUSTOMER COPY`, `DUPLICATE COPY`). */
const TITLE_COMPANIONS = new Set([
  'CUSTOMER',
  'CUSTOMERS',
  'MERCHANT',
  'DUPLICATE',
  'STORE',
  'SHOP',
  'COPIES',
]);

/**
 * A row's quantity, unit price and amount whose decimal points were all lost (`A4 COPY 8 053 424
 * SR`), on a receipt that prints its amounts with cents: written with their points where the
 * quantity times the unit price gives the amount and the amount has cents (`8 0.53 4.24`).
 */
function pointsRestored(text: string): string {
  return text.replace(
    /(\s\d{1,3}\s+)(\d{1,5})(\d{2})\s+(\d{1,5})(\d{2})(?=(?:\s+[A-Z]{1,3})?\s*$)/,
    (all, q: string, u: string, uc: string, t: string, tc: string) =>
      Number(q) * Number(u + uc) === Number(t + tc) && tc !== '00' ? `${q}${u}.${uc} ${t}.${tc}` : all,
  );
}

/** A number of three or four digits before a row's name (`0954 MISTER POTATO`, `183 PLANTA`). */
const LEADING_CODE_RE = /^\d{3,4}\s+(?=\S*\p{L})/u;

/**
 * Whether the rows of the item area start with an article code: two or more rows whose name follows
 * a number of four digits, or of three or four with a leading zero (`5422 MI SEDAAP`, `0155 TWISTIES`).
 * There a number of three or four digits before a name is a code, not the quantity (`183 PLANTA`).
 */
function hasLeadingCodeColumn(lines: readonly ReceiptLine[]): boolean {
  return lines.filter((l) => /^(?:\d{4}|0\d{2})\s+\S*\p{L}{2}/u.test(l.text.trim())).length >= 2;
}

/** Whether two or more rows of the item area end with an amount and a one- or two-digit code. */
function hasDigitCodeColumn(lines: readonly ReceiptLine[]): boolean {
  return lines.filter((l) => /\d[.,]\d{2}\s+\d{1,2}$/.test(l.text)).length >= 2;
}

/**
 * Whether a line prints a date. A day and month read across a space after a column of counts, whose
 * order the text leaves open, is the last count and the amount of an item row (`JUMBO .97 5 3 2.
 * 5.94`), not a date.
 */
function printsDate(text: string): boolean {
  return findDates(text).some(
    (d) => d.certain || !/\s/.test(d.text) || !/(?:^|\s)-?\d{1,4}\s+$/.test(text.slice(0, d.index)),
  );
}

/**
 * Reads the item lines between the receipt's header and its totals: a description and a price, with
 * a quantity and unit price where printed, on the same line or on a line of its own just below
 * (`2 x 1.50`) or above (a description alone, then `1x 2.20 2.20`).
 */
export function readItems(
  lines: ReceiptLine[],
  start: number,
  end: number,
  afterItems = false,
): ItemReading[] {
  const layout = findItemLayout(lines);
  const area = lines.slice(start, end);
  const digitCodes = hasDigitCodeColumn(area);
  const letters = codeLetters(area);
  const codes = hasLeadingCodeColumn(area);
  const cents = lines.some((l) => /\d[.,]\d{2}(?![\d.,])/.test(l.text));
  const texts = lines.map((l) => {
    const row = rowText(l, layout, digitCodes);
    const text = amountLetterRead(
      codeLetterRead(unglueMark(cents ? pointsRestored(row) : row), letters),
      l,
      layout,
    );
    return codes ? text.replace(LEADING_CODE_RE, '') : text;
  });
  const below = namesBelowFigures(lines, texts, start, end);
  const items: ItemReading[] = [];
  let pending: ReceiptLine[] = [];
  let underHeader = start > 0 && isColumnHeader(lines[start - 1]!);
  // Whether the first item's row had name lines above it, or was a row of figures: then the lines
  // between rows are the next item's name, else the second line of the one above.
  let namesAbove: boolean | null = null;
  for (let at = start; at < end; at++) {
    const line = lines[at]!;
    if (NOT_AN_ITEM_RE.test(line.upper) || isDocumentTitle(line.upper) || isColumnHeader(line)) {
      pending = [];
      underHeader = isColumnHeader(line);
      continue;
    }
    // A column heading's second line (`QTY  RM  RM`, `Unit Price Unit Discount Amount Code`).
    if (underHeader && HEADER_WORD_RE.test(line.upper) && findAmounts(line.text).length === 0) continue;
    underHeader = false;
    // A discount printed under its item (`Stat-oreat Saving -9.60`, `DISC 30% -0.75`) is no item.
    if (itemDiscount(line) !== null) continue;
    if (printsDate(line.text) || (findTimes(line.text).length > 0 && !hasWords(line.text))) continue;
    const text = texts[at]!;
    // A negative amount before any item is no goods; after items (here or in a group above, a
    // returns section under the subtotal of what was delivered) it is a row returned.
    const amounts = findAmounts(text).filter((a) => a.value >= 0 || afterItems || items.length > 0);
    if (amounts.length === 0) {
      const prev = items[items.length - 1];
      // `  2 x 1.99` under a priced description: the quantity and unit price of that item.
      const qtyLine = /^(\d{1,4})\s*[xX×*@]\s*(\d+[.,]\d{2})$/.exec(line.text.trim());
      if (qtyLine && prev && prev.item.quantity === null) {
        const qty = Number(qtyLine[1]);
        const unit = Number(qtyLine[2]!.replace(',', '.'));
        if (prev.item.total_price !== null && near(qty * unit, prev.item.total_price)) {
          prev.item.quantity = qty;
          prev.item.unit_price = unit;
        }
        continue;
      }
      // A code line, or a column heading's words (`kg EURO/kg EURO` over a weighed item's figures).
      if (isCodeLine(line.text) || isHeadingWords(line.text) || namesNothing(line.text)) continue;
      // A row whose figure in the amount column could not be read (`COKE 1.5L RNS.98 s`): no item,
      // and neither it nor the lines above it a name of the next row or the last.
      if (unreadAmount(line, layout)) {
        pending = [];
        continue;
      }
      if (hasWords(line.text)) {
        // A description printed under a barcode-and-price line belongs to that item.
        if (prev && prev.item.description.length === 0) {
          prev.item.description = tidyDescription(line.text);
          continue;
        }
        pending.push(line);
        if (pending.length > 2) pending.shift();
      }
      continue;
    }
    const parts = splitPricedLine(text, amounts);
    if (!parts || (parts.total === 0 && !pricedAtZero(parts))) {
      pending = [];
      continue;
    }
    let description = parts.description;
    const figuresOnly = !hasWords(description) || namesNothing(description);
    namesAbove ??= pending.length > 0 || figuresOnly;
    // A name's second line printed under its row (`(T02) BRAISED PORK 2.0 7.00 14.00` / `RICE WITH
    // PEANUT`), where rows carry their names and none stands under a name line above it.
    if (!figuresOnly && !namesAbove) continueName(items, pending, layout);
    if (figuresOnly) {
      // A row of figures (`3UNIT* 4.80 14.40`, `RM3.20 10.00 RM3.20`): its quantity leads it, and
      // `2 Rolle x 4,85` prints the unit price, whose product is the amount.
      if (parts.quantity === null) {
        parts.quantity = leadingQuantity(description);
        if (parts.quantity !== null && /[xX×*@]\s*$/.test(description) && parts.unitPrice === null) {
          parts.unitPrice = parts.total;
          parts.total = roundMoney(parts.quantity * parts.total);
        } else if (parts.quantity !== null && parts.unitPrice === null) {
          // A price per litre printed to three decimals (`42,18 l x 1,799 75,88`) is no amount.
          const perUnit = /[xX×*@]\s*(\d{1,5}[.,]\d{3})\s*$/.exec(description);
          parts.unitPrice = perUnit
            ? Number(perUnit[1]!.replace(',', '.'))
            : roundMoney(parts.total / parts.quantity);
        }
      }
      // Its name is the text printed above it since the last item, or the line under it.
      description = pending.length > 0 && !below ? tidyDescription(pending.map((p) => p.text).join(' ')) : '';
    }
    pending = [];
    const prevItem = items[items.length - 1];
    if (
      description.length > 0 &&
      prevItem &&
      prevItem.item.description.length === 0 &&
      prevItem.item.quantity !== null &&
      parts.quantity === null &&
      prevItem.item.total_price !== null &&
      near(prevItem.item.total_price, parts.total) &&
      (indentedOver(prevItem.line, line, layout) || !below)
    ) {
      // A row of figures with no name above it over a named line with their product (`2Rollex
      // 4,85` / `PARKETTZUBEHOR 9,70`, `2x 0,75` / `FRUEHL-QUARK 1,50`): the figures are that
      // item's quantity and unit price. A till that prints `3 x 0.80` under its item gave it to the
      // item above already, where the product is that item's amount.
      items.pop();
      parts.quantity = prevItem.item.quantity;
      parts.unitPrice = prevItem.item.unit_price;
    }
    if (description.length === 0 && items.length > 0 && parts.quantity !== null && !below) {
      // A quantity line below an item whose price was printed on the description line (where names
      // are printed under their figures, it is the next item's row).
      const prev = items[items.length - 1]!;
      if (
        prev.item.quantity === null &&
        prev.item.total_price !== null &&
        near(prev.item.total_price, parts.total)
      ) {
        prev.item.quantity = parts.quantity;
        prev.item.unit_price = parts.unitPrice;
        continue;
      }
    }
    items.push({
      item: {
        description,
        quantity: parts.quantity,
        unit_price: parts.unitPrice,
        total_price: parts.total,
      },
      line,
    });
  }
  if (namesAbove === false) continueName(items, pending, layout);
  return items.filter((r) => r.item.description.length > 0);
}

/**
 * Adds the name lines printed under the last item's row to its name: those that start where the row
 * starts (from the boxes; an indented line is a part or an option of the item, `1 LCoke` under a
 * meal, `*Extra 1 Tea Cup`).
 */
function continueName(items: ItemReading[], pending: readonly ReceiptLine[], layout: ItemLayout): void {
  const last = items[items.length - 1];
  const left = (line: ReceiptLine) => line.words?.[0]?.box[0];
  const row = last && left(last.line);
  if (!last || row === undefined || layout.charWidth === null || last.item.description.length === 0) return;
  const under: string[] = [];
  for (const line of pending) {
    const x = left(line);
    if (x === undefined || Math.abs(x - row) >= layout.charWidth) break;
    under.push(line.text);
  }
  if (under.length > 0) last.item.description = tidyDescription([last.item.description, ...under].join(' '));
}

/**
 * The items of the receipt from `start` (after its header) to the line that ends them. A line that
 * would end them but whose amount is the sum of the items above it, with a priced row under it that
 * ends nothing (no service charge, discount or total), is the subtotal of a group of items (`Total 0% supplies: 14.35` between the goods
 * without tax and those with it): the items go on under it, to the next such line. `discounts` are
 * the discounts printed under items (see {@link itemDiscount}), negative.
 */
export function readItemArea(
  lines: ReceiptLine[],
  start: number,
): { items: ItemReading[]; end: number; discounts: number[] } {
  let items: ItemReading[] = [];
  const discounts: number[] = [];
  for (let from = start; ;) {
    const found = lines.findIndex((l, i) => i >= from && isItemAreaEnd(l));
    const end = found === -1 ? lines.length : found;
    const group = readItems(lines, from, end, items.length > 0);
    items = [...items, ...withUnreadAmount(lines, from, end, group)];
    for (let at = from; at < end; at++) {
      const discount = itemDiscount(lines[at]!);
      if (discount !== null) discounts.push(discount);
    }
    const next = lines[end + 1];
    const amounts = found === -1 ? [] : findAmounts(lines[end]!.text);
    const sum = roundMoney(items.reduce((s, r) => s + (r.item.total_price ?? 0), 0));
    const groupEnds =
      items.length > 0 &&
      amounts.length > 0 &&
      near(amounts[amounts.length - 1]!.value, sum) &&
      !STRONG_TOTAL_RE.test(lines[end]!.upper) &&
      !TOTAL_AMOUNT_RE.test(lines[end]!.upper) &&
      next !== undefined &&
      !isItemAreaEnd(next) &&
      !SERVICE_RE.test(next.upper) &&
      !DISCOUNT_RE.test(next.upper) &&
      !TOTAL_RE.test(next.upper) &&
      hasWords(next.text) &&
      findAmounts(next.text).length > 0;
    if (!groupEnds) return { items, end, discounts };
    from = end + 1;
  }
}

/** A row of a name, a unit price and count columns, with no amount after them (`DELICIA 3.72 0 2 2`). */
const UNPRICED_COUNTS_RE = /^(.*\p{L}{2}.*?)\s+(\d{1,5}[.,]\d{2})((?:\s+(?:-?\d{1,4}|[A-Z]))+)\s*$/u;
/**
 * A row of a name, a count and an amount whose decimal point was lost, a tax code after it
 * (`HAZELNUT COCO 1 750 SR`): the count or the code, or both, as item rows print them.
 */
const POINTLESS_AMOUNT_RE =
  /^(.*\p{L}{2}.*?)(?:\s+(\d{1,3})\s+(\d{3,6})(?:\s+[A-Z]{1,3})?|\s+(\d{3,6})\s+[A-Z]{1,3})\s*$/u;

/**
 * The item of a row read as no item, given the amount the group's subtotal leaves for it: a row of
 * unit price and counts whose amount was not read, where the amount over the unit price is a whole
 * count the row prints (its sign aside, a minus being easily lost); or a row whose amount lost its
 * decimal point, where its cents are that amount. Null where the row is neither.
 */
function unreadItem(text: string, amount: number): AnalyzedItem | null {
  const counts = findAmounts(text).length === 1 ? UNPRICED_COUNTS_RE.exec(text) : null;
  if (counts) {
    const unit = Number(counts[2]!.replace(',', '.'));
    const quantity = unit > 0 ? Math.round(amount / unit) : 0;
    const printed = counts[3]!
      .trim()
      .split(/\s+/)
      .map((c) => Math.abs(Number(c)));
    if (quantity === 0 || !near(quantity * unit, amount) || !printed.includes(Math.abs(quantity)))
      return null;
    return { description: tidyDescription(counts[1]!), quantity, unit_price: unit, total_price: amount };
  }
  const pointless = findAmounts(text).length === 0 ? POINTLESS_AMOUNT_RE.exec(text) : null;
  const cents = pointless ? Number(pointless[3] ?? pointless[4]) : NaN;
  if (!pointless || amount <= 0 || !near(cents / 100, amount)) return null;
  const quantity = pointless[2] === undefined ? null : Number(pointless[2]);
  const unit = quantity !== null && quantity > 0 ? roundMoney(amount / quantity) : null;
  return { description: tidyDescription(pointless[1]!), quantity, unit_price: unit, total_price: amount };
}

/**
 * The items of a group with the one row whose amount was not read put back (`DELICIA 3.72 G 2 2`
 * above `Total 6% supplies: -7.44`, `HAZELNUT COCO 1 750 SR` above `Sub Total RM8.60`): the
 * subtotal under the group less the amounts of its other rows is that row's amount (see
 * {@link unreadItem}). The group as read where not exactly one row fits.
 */
function withUnreadAmount(
  lines: readonly ReceiptLine[],
  from: number,
  end: number,
  group: ItemReading[],
): ItemReading[] {
  const sumLine = lines[end];
  if (!sumLine || !(SUBTOTAL_RE.test(sumLine.upper) || TOTAL_RE.test(sumLine.upper))) return group;
  const sums = findAmounts(sumLine.text);
  if (sums.length === 0) return group;
  const amount = roundMoney(
    sums[sums.length - 1]!.value - group.reduce((s, r) => s + (r.item.total_price ?? 0), 0),
  );
  const found = lines
    .slice(from, end)
    .filter(
      (l) =>
        !group.some((r) => r.line === l) &&
        hasWords(l.text) &&
        !NOT_AN_ITEM_RE.test(l.upper) &&
        !isDocumentTitle(l.upper) &&
        !printsDate(l.text) &&
        findTimes(l.text).length === 0,
    )
    .map((line) => ({ line, item: unreadItem(unglueMark(line.text), amount) }));
  const fits = found.filter((f) => f.item !== null);
  if (fits.length !== 1) return group;
  const { line, item } = fits[0]!;
  const at = lines.indexOf(line);
  return [
    ...group.filter((r) => lines.indexOf(r.line) < at),
    { item: item!, line },
    ...group.filter((r) => lines.indexOf(r.line) > at),
  ];
}

/** An item's amount when its own row's figures disagree (quantity × unit price is not the amount). */
export const ROW_ARITHMETIC_FAILS = 0.5;
/** An item's amount at least, when the items add up to the subtotal or the total. */
export const ITEMS_ADD_UP = 0.95;

/**
 * The items with one amount read back from its row's arithmetic: when exactly one row's quantity ×
 * unit price disagrees with its amount (`2 * 2.50 5.03`), and with the product in its place the items
 * add up to the subtotal or the total while as read they do not, a digit of the amount was misread and
 * the product is the amount. Any other case is left as read (its confidence says the row is doubtful).
 */
export function amountsFromArithmetic(
  readings: readonly ItemReading[],
  sums: ReadonlyArray<number | null>,
): ItemReading[] {
  const wrong = readings.filter(({ item }) => item.quantity! > 0 && rowProduct(item) !== null);
  if (wrong.length !== 1) return [...readings];
  const sum = roundMoney(readings.reduce((s, r) => s + (r.item.total_price ?? 0), 0));
  const target = wrong[0]!;
  const product = rowProduct(target.item)!;
  const corrected = roundMoney(sum - target.item.total_price! + product);
  const addsUp = (x: number) => sums.some((t) => t !== null && near(t, x));
  if (addsUp(sum) || !addsUp(corrected)) return [...readings];
  return readings.map((r) => (r === target ? { ...r, item: { ...r.item, total_price: product } } : r));
}

/** Quantity × unit price of a row whose amount disagrees with them; null when they agree or one is not printed. */
function rowProduct({ quantity: q, unit_price: u, total_price: t }: ItemReading['item']): number | null {
  if (q === null || u === null || t === null) return null;
  const product = roundMoney(q * u);
  return Math.abs(product - t) > 0.011 ? product : null;
}

/**
 * The confidence (0..1) of each item's amount, from the line it was read from and the receipt's own
 * arithmetic: a row whose quantity × unit price is not its amount is unsure
 * ({@link ROW_ARITHMETIC_FAILS}); items that add up to the subtotal or the total confirm each other
 * ({@link ITEMS_ADD_UP}). A sum that does not add up lowers nothing: whether the items or the total
 * were misread is for the review to weigh (core's `assessReview` trusts items read surely).
 *
 * @param sums - the subtotal and the total read (null where not read)
 */
export function itemConfidences(
  readings: readonly ItemReading[],
  sums: ReadonlyArray<number | null>,
): Array<number | null> {
  const sum = roundMoney(readings.reduce((s, r) => s + (r.item.total_price ?? 0), 0));
  const addsUp = readings.length > 0 && sums.some((t) => t !== null && near(t, sum));
  return readings.map(({ item, line }) => {
    if (rowProduct(item) !== null) return Math.min(line.confidence ?? 1, ROW_ARITHMETIC_FAILS);
    if (addsUp) return Math.max(line.confidence ?? 0, ITEMS_ADD_UP);
    return line.confidence;
  });
}
