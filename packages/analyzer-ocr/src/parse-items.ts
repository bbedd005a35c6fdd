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
  DOC_TITLE_RE,
  PAYMENT_RE,
  ROUNDING_RE,
  STRONG_TOTAL_RE,
  SUBTOTAL_RE,
  SUMMARY_RE,
  TAX_RE,
  TOTAL_RE,
  type ReceiptLine,
} from './receipt-lines';

/** An item and the line its price was read from. */
export interface ItemReading {
  item: AnalyzedItem;
  line: ReceiptLine;
}

/** Column headings above the items (`QTY DESCRIPTION PRICE AMOUNT`). */
const COLUMN_HEADER_RE =
  /\b(?:DESCRIPTION|DESC|ITEM\s*NAME|ITEMS?|PRODUCT|ARTICLE)\b.*\b(?:QTY|QTY\.|PRICE|AMOUNT|AMT|TOTAL|U\/?P)\b|\b(?:QTY|QNTY|QUANTITY)\b.*\b(?:ITEM|DESC|DESCRIPTION|PRICE|AMOUNT|AMT)\b/;
/** Lines inside the item area that are bookkeeping, not goods. */
const NOT_AN_ITEM_RE =
  /\d\s*UHR\b|\b(?:CASHIER|SALESPERSON|STAFF|OPERATOR|TERMINAL|POS\s*\d|DOC\s*NO|INV(?:OICE)?\s*(?:NO|#)|RECEIPT\s*(?:NO|#)|BILL\s*(?:NO|#)|TABLE\b|COUNTER|MEMBER|CARD\s*NO|APPROVAL|AUTH|REF(?:ERENCE)?\s*(?:NO|#))/;
/**
 * A tax mark glued to the amount before it at the end of a line (`0,89C`, `15.50SR`, `2,34*B`, read
 * `2,34xB` or `2,34x8`): tax-class letters, not units (`1.25L`, `500G` stay as they are).
 */
const GLUED_MARK_RE = /(\d[.,]\d{2})(?:[xX*][A-Z0-9]|[A-FSTVZ]|[SZ]R)$/;

/** A line's text with a tax mark glued to its last amount set apart from it (see {@link GLUED_MARK_RE}). */
function unglueMark(text: string): string {
  return text.trimEnd().replace(GLUED_MARK_RE, '$1');
}

/** Tax codes and markers printed after the price (`SR`, `ZR`, `*S`, `T`, `A`). */
const TRAILING_MARKS = /^\s*(?:\*?\s*[A-Z]{1,3}\s*\*?|\*|%)?\s*$/;
const QTY_TIMES = /(?:^|\s)(\d{1,4}(?:[.,]\d{1,3})?)\s*(?:[xX×*]|PCS?\s*[xX*]?|@)\s*$/;

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
    (TOTAL_RE.test(u) && !/\bAMOUNT\b|\bAMT\b/.test(u)) ||
    ROUNDING_RE.test(u) ||
    COUNT_RE.test(u) ||
    ((TAX_RE.test(u) || GLUED_TAX_RE.test(u)) &&
      findAmounts(line.text).length > 0 &&
      !/\b[SZ]R\b\s*$/.test(u)) ||
    ((PAYMENT_RE.test(u) || CHANGE_RE.test(u)) && findAmounts(line.text).length > 0) ||
    SUMMARY_RE.test(u)
  );
}

/** A tax line whose words an engine ran together: `VATINCLUDED20%`, `GST6%`. */
const GLUED_TAX_RE = /^(?:GST|VAT|SST|TAX)(?=INCL|EXCL|\d|@|%)/;

export function isColumnHeader(line: ReceiptLine): boolean {
  return COLUMN_HEADER_RE.test(line.upper) && findAmounts(line.text).length === 0;
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
      .replace(/\b(?=[A-Z]*0)[A-Z0]*[A-Z][A-Z0]*\b/g, (word) => word.replace(/0/g, 'O'))
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

interface PriceParts {
  description: string;
  quantity: number | null;
  unitPrice: number | null;
  total: number;
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
    const bareQty = /(?:^|\s)(\d{1,4}(?:\.\d{1,3})?)\s*$/.exec(beforeUnit);
    if (times) {
      quantity = Number(times[1]!.replace(',', '.'));
      unitPrice = unit.value;
      head = beforeUnit.slice(0, times.index);
    } else if (qtyAfter) {
      quantity = Number(qtyAfter[1]);
      unitPrice = unit.value;
      head = beforeUnit;
    } else if (bareQty && near(Number(bareQty[1]) * unit.value, total)) {
      quantity = Number(bareQty[1]);
      unitPrice = unit.value;
      head = beforeUnit.slice(0, bareQty.index);
    } else if (/^\s*$/.test(between) && near(unit.value, total)) {
      unitPrice = unit.value;
      head = beforeUnit;
    } else if (amounts.length === 2 && /^\s*[A-Z]{0,3}\s*$/i.test(between)) {
      // `DESC 12.00 2 24.00` is handled above; here a discount or deposit column: keep the last.
      head = beforeUnit;
    }
  } else {
    const times = QTY_TIMES.exec(head);
    if (times && /\d\s*[xX×*]\s*$/.test(head)) {
      // `DESC 2 x 3.00`: the amount is the unit price and the total is the product.
      quantity = Number(times[1]!.replace(',', '.'));
      unitPrice = total;
      head = head.slice(0, times.index);
      const description = tidyDescription(head);
      return { description, quantity, unitPrice, total: roundMoney(quantity * unitPrice) };
    }
  }

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
  const at = /\s@\s*$/.exec(head);
  if (at) head = head.slice(0, at.index);
  if (unitPrice === null && quantity !== null && quantity > 0) unitPrice = roundMoney(total / quantity);
  return { description: tidyDescription(head), quantity, unitPrice, total };
}

/**
 * Reads the item lines between the receipt's header and its totals: a description and a price, with
 * a quantity and unit price where printed, on the same line or on a line of its own just below
 * (`2 x 1.50`) or above (a description alone, then `1x 2.20 2.20`).
 */
export function readItems(lines: ReceiptLine[], start: number, end: number): ItemReading[] {
  const items: ItemReading[] = [];
  let pending: ReceiptLine[] = [];
  for (let at = start; at < end; at++) {
    const line = lines[at]!;
    if (NOT_AN_ITEM_RE.test(line.upper) || DOC_TITLE_RE.test(line.upper) || isColumnHeader(line)) {
      pending = [];
      continue;
    }
    if (findDates(line.text).length > 0 || (findTimes(line.text).length > 0 && !hasWords(line.text)))
      continue;
    const text = unglueMark(line.text);
    const amounts = findAmounts(text).filter((a) => a.value >= 0 || items.length > 0);
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
    if (!parts || parts.total === 0) {
      pending = [];
      continue;
    }
    let description = parts.description;
    if (!hasWords(description) && pending.length > 0) {
      description = tidyDescription(pending.map((p) => p.text).join(' '));
    } else if (!hasWords(description)) {
      description = '';
    }
    pending = [];
    if (description.length === 0 && items.length > 0 && parts.quantity !== null) {
      // A quantity line below an item whose price was printed on the description line.
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
  return items.filter((r) => r.item.description.length > 0);
}
