import type {
  AnalyzeExpenseResponse,
  Block,
  ExpenseDocument,
  ExpenseDetection,
  ExpenseField,
  ExpenseGroupProperty,
  LineItemFields,
  LineItemGroup,
} from '@aws-sdk/client-textract';
import {
  MONTH_FIRST_COUNTRIES,
  LEGAL_ENTITY_RE,
  ValidationError,
  countryCodeOf,
  detectCurrency,
  findChainEvidence,
  findDates,
  findTimes,
  merchantOfChain,
  normalizeCurrencyCode,
  parseDate,
  parseMoney,
  printsWholeUnits,
  checkedConfidence,
  completeLinePrices,
  roundMoney,
  tidyMerchantName,
  totalChecksOut,
  totalConfidence,
  weighTotal,
  type AnalysisResult,
  type ChainLookup,
  type ChainMerchant,
  type Figure,
  type TotalVerdict,
  type AnalyzedItem,
  type AnalyzedTax,
  type DateOrder,
} from '@receipts/core';
import { expenseAdjustments, rowDiscount, type DiscountRow } from './adjustments';
import { nameColumnWidth, nameFromRow } from './item-name';

/**
 * Maps an Amazon Textract AnalyzeExpense response (as the SDK returns it, or parsed from its JSON) to
 * one AnalysisResult. Pure: no I/O, and the input is not changed; `raw` is the response itself.
 *
 * **Which documents.** Textract may split one upload into several ExpenseDocuments (one per receipt or
 * invoice it detects; a multi-page invoice often comes back as one document per page). The first
 * document is the receipt. A later document is merged into it when it is the same receipt: the same
 * INVOICE_RECEIPT_ID, or else the same vendor name, or it carries neither (a continuation page).
 * Other documents are a different receipt and are left out of the result (they stay in `raw`).
 * Merged documents add their line items in order; for single-valued fields the first document that
 * has one wins; the total is chosen among all of them.
 *
 * **Total.** TOTAL, AMOUNT_DUE and AMOUNT_PAID fields are ranked by their printed label: a final
 * total (`TOTAL`, `GRAND TOTAL`, `TOTAL DUE`, `AMOUNT DUE`, `TOTAL PAID`, `TOTAL INCL. GST`) beats an
 * unlabelled one, which beats a tender (`CASH`, `TEND`, `VISA`, which may exceed the total), charges and
 * fees, balances, and last tax, subtotal, change and savings lines. Ties go to the value printed most
 * often, then to the one lowest on the page (the last one when there is no geometry).
 *
 * **Other fields.** Vendor: VENDOR_NAME (or NAME in the VENDOR group): a company with its legal form
 * first (one printed apart before one that opens an address block; never one labelled as the owner),
 * then the highest confidence; else a VENDOR_URL's domain. Address parts: STREET, CITY, ZIP_CODE,
 * COUNTRY in the VENDOR group, or ungrouped ones whose text lies inside VENDOR_ADDRESS (older
 * responses have no groups). Date:
 * INVOICE_RECEIPT_DATE, else ORDER_DATE, else an OTHER field labelled as a date (not a due, birth or
 * expiry date); numeric dates are read month first for US and Philippine documents (by country or
 * currency) or when another date on the document proves month-first order. Time: from the date fields,
 * or else a text line of the document that holds a date and a time, or a date with the time on the next
 * line (never a time alone, which may be opening hours). Tax: a TAX field labelled as the total
 * tax, else the sum of the distinct TAX fields. Currency: `Currency.Code` when Textract gives one,
 * else the marks printed with the amounts (a bare `$` only with a known country).
 * Adjustments: the service charges, discounts and rounding between the items and the amount paid
 * (`expenseAdjustments`), counted in `total_checks_out`.
 * Items: one per line item; when the items do not add up to the subtotal (or, with no subtotal and no
 * tax, the total), one item's misread amount may be read back from a figure on its row
 * ({@link amountsToSum}); its confidence is then at most 0.5.
 * Multi-line values are joined with spaces; lines that are only punctuation at either end are dropped.
 * Confidences are the values' `ValueDetection.Confidence` scaled to 0..1.
 *
 * @param response - an AnalyzeExpense (or GetExpenseAnalysis) response
 * @throws ValidationError when the input has no ExpenseDocuments list
 */
export function mapAnalyzeExpense(
  response: AnalyzeExpenseResponse | unknown,
  { chains, without = [] }: { chains?: ChainLookup; without?: readonly ItemRule[] } = {},
): AnalysisResult {
  const rules = new Set<ItemRule>(ITEM_RULES.filter((r) => !without.includes(r)));
  if (!isRecord(response) || !Array.isArray(response['ExpenseDocuments'])) {
    throw new ValidationError(
      'This is not an Amazon Textract AnalyzeExpense response: it has no "ExpenseDocuments" list.',
      { code: 'NotAnExpenseResponse' },
    );
  }
  const documents = (response['ExpenseDocuments'] as unknown[]).filter(isRecord) as ExpenseDocument[];
  const chosen = receiptDocuments(documents);
  const summary = chosen.flatMap((doc) => records<ExpenseField>(doc.SummaryFields)).map(toField);
  const confidence: Record<string, number> = {};
  const note = (path: string, field: Field | undefined) => {
    if (field?.confidence != null) confidence[path] = field.confidence;
  };

  const merchant = mapMerchant(summary, note);
  const chain = chains ? chainOfReceipt(chosen, summary, merchant.name, chains) : null;
  const country = merchant.country;
  const currencyHint = firstCurrencyCode(summary);
  const order = dateOrder(summary, country, currencyHint);

  const items = chosen.flatMap((doc) =>
    records<LineItemGroup>(doc.LineItemGroups).flatMap((g) => records<LineItemFields>(g.LineItems)),
  );
  const printed = [
    ...summary.filter((f) => MONEY_TYPES.has(f.type)).map((f) => f.value),
    ...items.flatMap((li) =>
      records<ExpenseField>(li.LineItemExpenseFields)
        .filter((f) => f.Type?.Text === 'PRICE' || f.Type?.Text === 'UNIT_PRICE')
        .map((f) => text(f.ValueDetection?.Text)),
    ),
  ];
  const ctx: MoneyContext = {
    country,
    wholeUnits: printsWholeUnits(printed, currencyHint ?? detectCurrency(printed.join(' '), country)),
  };

  const taxes = mapTaxes(summary, ctx);
  if (taxes.fields.length > 0)
    confidence['receipt.total_tax'] = Math.min(...taxes.fields.map((f) => f.confidence ?? 1));
  const subtotalField = chooseSubtotal(summary, ctx);
  note('receipt.subtotal', subtotalField);

  const dateField = chooseDate(summary, order);
  note('receipt.transaction_date', dateField?.field);
  if (dateField && dateField.printedAgain)
    confidence['receipt.transaction_date'] = Math.max(confidence['receipt.transaction_date'] ?? 0.7, 0.95);
  const time = chooseTime(summary, chosen);

  const nameWidth = nameColumnWidth(
    items.flatMap((li) =>
      records<ExpenseField>(li.LineItemExpenseFields)
        .filter((f) => f.Type?.Text === 'ITEM' || f.Type?.Text === 'DESCRIPTION')
        .map((f) => text(f.ValueDetection?.Text) ?? ''),
    ),
  );
  const mappedItems: AnalyzedItem[] = [];
  const itemDiscounts: number[] = [];
  for (const lineItem of items) {
    const mapped = mapLineItem(lineItem, ctx, rules, nameWidth);
    if (!mapped) continue;
    if ('discountRow' in mapped) {
      const above = mappedItems[mappedItems.length - 1]?.total_price ?? null;
      const discount = rowDiscount({ ...mapped.discountRow, itemAmount: above });
      if (discount !== null) itemDiscounts.push(discount);
      continue;
    }
    const index = mappedItems.length;
    mappedItems.push(mapped.item);
    note(`items.${index}.description`, mapped.descriptionField);
    note(`items.${index}.total_price`, mapped.priceField);
  }
  const pricedItems = mappedItems.filter((i) => typeof i.total_price === 'number');
  const itemSum =
    pricedItems.length > 0 ? roundMoney(pricedItems.reduce((sum, i) => sum + i.total_price!, 0)) : null;

  const chosenTotal = chooseTotal(summary, ctx, taxes.total, itemSum);
  const totalField = chosenTotal?.field;
  const total = chosenTotal?.amount ?? null;
  if (chosenTotal)
    confidence['receipt.total_amount'] = totalConfidence(
      chosenTotal.verdict,
      totalField?.confidence ?? undefined,
    );

  // A total with tax in it is no sum of the items.
  const subtotal = subtotalField ? money(subtotalField.value, ctx) : null;
  const itemsTarget = subtotal ?? (taxes.total === null ? total : null);
  if (itemsTarget !== null && rules.has('amount-from-arithmetic')) {
    amountsToSum(mappedItems, itemsTarget).forEach((item, index) => {
      if (item === mappedItems[index]) return;
      // Read back from the arithmetic, not as printed.
      const path = `items.${index}.total_price`;
      confidence[path] = Math.min(confidence[path] ?? 1, 0.5);
      mappedItems[index] = item;
    });
  }

  const priced = mappedItems.filter((i) => typeof i.total_price === 'number');
  const adjustments = expenseAdjustments({
    figures: summaryFigures(summary, ctx, taxes.total),
    itemDiscounts,
    itemSum: priced.length > 0 ? roundMoney(priced.reduce((sum, i) => sum + i.total_price!, 0)) : null,
    subtotal,
    tax: taxes.total,
    total,
    wholeUnits: ctx.wholeUnits,
  });

  const currency =
    totalField?.currency ??
    currencyHint ??
    detectCurrency(totalField?.value ?? '', country) ??
    detectCurrency(
      summary
        .filter((f) => MONEY_TYPES.has(f.type))
        .map((f) => f.value)
        .join(' '),
      country,
    );

  const result: AnalysisResult = {
    analyzer: 'textract',
    receipt: {
      doc_type: docType(summary),
      receipt_type: chain?.category ?? null,
      country_region: country,
      total_amount: total,
      subtotal,
      currency_code: currency,
      total_tax: taxes.total,
      transaction_date: dateField?.iso ?? null,
      transaction_time: time,
      total_checks_out: totalChecksOut(total, mappedItems, taxes.total, subtotal, adjustments),
      ...(adjustments.length > 0 ? { adjustments } : {}),
    },
    merchant: {
      name: chain?.name ?? merchant.name,
      ...(chain ? { owning_corporation: chain.owning_corporation } : {}),
      phone_number: merchant.phone,
      postal_code: merchant.postalCode,
      city: merchant.city,
      street_address: merchant.street,
    },
    items: mappedItems,
    taxes: taxes.lines,
    confidence,
    raw: response,
    ...(chosenTotal && chosenTotal.verdict.contradictions.length > 0
      ? { contradicted: ['receipt.total_amount' as const] }
      : {}),
    prints_date: dateField !== undefined || printsDate(summary, chosen),
  };
  return { ...result, confidence: checkedConfidence(result) };
}

/** One expense field, flattened and cleaned. */
interface Field {
  type: string;
  label: string | null;
  value: string;
  /** The value as Textract read it, lines and all. */
  raw: string;
  confidence: number | null;
  currency: string | null;
  groups: string[];
  page: number;
  top: number | null;
  /** Position in the response, for stable ties. */
  order: number;
}

type Note = (path: string, field: Field | undefined) => void;

const MONEY_TYPES = new Set(['TOTAL', 'AMOUNT_PAID', 'AMOUNT_DUE', 'SUBTOTAL', 'TAX']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The objects of a list from the response; anything malformed in a saved JSON reads as absent. */
function records<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value.filter(isRecord) as T[]) : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Joins lines with spaces, dropping punctuation-only lines at either end (`META\n-` -> `META`). */
export function cleanText(text: string | null | undefined): string {
  if (typeof text !== 'string') return '';
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l !== '');
  const meaningful = (l: string) => /[\p{L}\p{N}]/u.test(l);
  while (lines.length > 0 && !meaningful(lines[0]!)) lines.shift();
  while (lines.length > 0 && !meaningful(lines[lines.length - 1]!)) lines.pop();
  return lines.join(' ');
}

/** Drops separators a value was printed with at its end (`Some City,` -> `Some City`). */
function trimPunctuation(text: string): string {
  return text.replace(/^[\s,;:]+|[\s,;:]+$/g, '');
}

function toField(raw: ExpenseField, order = 0): Field {
  const value: ExpenseDetection | undefined = isRecord(raw.ValueDetection) ? raw.ValueDetection : undefined;
  const confidence =
    typeof value?.Confidence === 'number' ? Math.max(0, Math.min(1, value.Confidence / 100)) : null;
  const top = value?.Geometry?.BoundingBox?.Top;
  return {
    type: (text(raw.Type?.Text) ?? 'OTHER').toUpperCase(),
    label: cleanText(text(raw.LabelDetection?.Text)) || null,
    value: cleanText(text(value?.Text)),
    raw: text(value?.Text) ?? '',
    confidence,
    currency: normalizeCurrencyCode(text(raw.Currency?.Code)),
    groups: records<ExpenseGroupProperty>(raw.GroupProperties)
      .flatMap((g) => (Array.isArray(g.Types) ? g.Types : []))
      .filter((t): t is string => typeof t === 'string')
      .map((t) => t.toUpperCase()),
    page: typeof raw.PageNumber === 'number' ? raw.PageNumber : 1,
    top: typeof top === 'number' ? top : null,
    order,
  };
}

/** How the amounts of one document are read: its country (for `$`) and whether it prints whole units. */
interface MoneyContext {
  country: string | null;
  wholeUnits: boolean;
}

/**
 * One amount. A value with noise before it (`4.00)240.000`, OCR joining a label's end to the value)
 * is read from its last number when the whole does not read.
 */
function money(text: string, ctx: MoneyContext): number | null {
  const whole = parseMoney(text, ctx.country, ctx)?.amount;
  if (whole !== undefined) return whole;
  const tail = /[)\]:]\s*([-\p{Sc}A-Za-z.]*\s?\d[\d.,]*)\s*$/u.exec(text)?.[1];
  return tail ? (parseMoney(tail, ctx.country, ctx)?.amount ?? null) : null;
}

function normKey(text: string | null | undefined): string {
  return (text ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function summaryValue(doc: ExpenseDocument, test: (f: Field) => boolean): string | null {
  const found = records<ExpenseField>(doc.SummaryFields)
    .map((f, i) => toField(f, i))
    .find((f) => test(f) && f.value !== '');
  return found ? normKey(found.value) : null;
}

const isVendorName = (f: Field) =>
  f.type === 'VENDOR_NAME' || (f.type === 'NAME' && f.groups.includes('VENDOR'));

/** The first document, and later ones that are the same receipt (see {@link mapAnalyzeExpense}). */
function receiptDocuments(documents: ExpenseDocument[]): ExpenseDocument[] {
  const [first, ...rest] = documents;
  if (!first) return [];
  const idOf = (d: ExpenseDocument) => summaryValue(d, (f) => f.type === 'INVOICE_RECEIPT_ID');
  const vendorOf = (d: ExpenseDocument) => summaryValue(d, isVendorName);
  const firstId = idOf(first);
  const firstVendor = vendorOf(first);
  return [
    first,
    ...rest.filter((doc) => {
      const id = idOf(doc);
      if (id !== null && firstId !== null) return id === firstId;
      const vendor = vendorOf(doc);
      if (vendor !== null && firstVendor !== null) return vendor === firstVendor;
      return id === null && vendor === null;
    }),
  ];
}

interface MerchantParts {
  name: string | null;
  phone: string | null;
  street: string | null;
  city: string | null;
  postalCode: string | null;
  country: string | null;
}

const OWNER_LABEL = /\b(owned|operated|managed)\s+by\b/i;

function mapMerchant(summary: Field[], note: Note): MerchantParts {
  const names = summary.filter((f) => isVendorName(f) && f.value !== '');
  // The trading company (a name with its legal form) is who issued the receipt; a name labelled as
  // the owner (`Owned By:`) is the company behind the shop, not the shop. Of two companies, the one
  // printed apart is the receipt's heading; one printed as the first line of an address block is a
  // former name, a licensor or an operator (`Golden Arches Restaurants Sdn Bhd` / `Licensee of
  // McDonald's` / the address, under the heading `Gerbang Alaf Restaurants Sdn Bhd`). Then the
  // most confident.
  const blockOpeners = new Set(
    summary
      .filter((f) => f.type === 'VENDOR_ADDRESS' || f.type === 'ADDRESS')
      .map((f) => normKey(f.raw.split('\n')[0])),
  );
  const rank = (f: Field) =>
    (OWNER_LABEL.test(f.label ?? '') ? -2 : 0) +
    (LEGAL_ENTITY_RE.test(tidyMerchantName(f.value).toUpperCase())
      ? blockOpeners.has(normKey(f.value))
        ? 0.5
        : 1
      : 0);
  let nameField: Field | undefined = names.reduce<Field | undefined>(
    (best, f) =>
      best === undefined ||
      rank(f) > rank(best) ||
      (rank(f) === rank(best) && (f.confidence ?? 0) > (best.confidence ?? 0))
        ? f
        : best,
    undefined,
  );
  let name = nameField ? fullLegalName(tidyMerchantName(trimPunctuation(nameField.value)), summary) : null;
  if (!name) {
    // Invoices often print the seller only as a web address.
    const urls = summary.filter((f) => f.type === 'VENDOR_URL' && f.value !== '');
    const bare = urls.find((f) => !/:\s*\/\//.test(f.value)) ?? urls[0];
    const domain = bare?.value
      .replace(/^[a-z]+:\s*\/\//i, '')
      .replace(/^www\./i, '')
      .replace(/\/.*$/, '')
      .trim();
    if (bare && domain && /^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+$/u.test(domain)) {
      name = domain;
      nameField = bare;
    }
  }
  note('merchant.name', nameField);

  const phoneField = summary.find((f) => f.type === 'VENDOR_PHONE' && /\d/.test(f.value));
  note('merchant.phone_number', phoneField);

  const vendorAddress = normKey(summary.find((f) => f.type === 'VENDOR_ADDRESS' && f.value !== '')?.value);
  const part = (type: string): Field | undefined => {
    const candidates = summary.filter((f) => f.type === type && trimPunctuation(f.value) !== '');
    return (
      candidates.find((f) => f.groups.includes('VENDOR')) ??
      candidates.find(
        (f) =>
          f.groups.length === 0 &&
          vendorAddress !== '' &&
          ` ${vendorAddress} `.includes(` ${normKey(f.value)} `),
      )
    );
  };
  const street = part('STREET');
  const city = part('CITY');
  const zip = part('ZIP_CODE');
  const country = part('COUNTRY');
  note('merchant.street_address', street);
  note('merchant.city', city);
  note('merchant.postal_code', zip);
  return {
    name: name || null,
    phone: phoneField ? phoneField.value : null,
    street: street ? trimPunctuation(street.value) : null,
    city: city ? trimPunctuation(city.value) : null,
    postalCode: zip ? trimPunctuation(zip.value) : null,
    country: country ? countryCodeOf(trimPunctuation(country.value)) : null,
  };
}

/**
 * The vendor's name with the legal form Textract cut off, from the first line of the vendor's
 * address block, which prints the name in full: `AEON CO.` of `AEON CO. (M) BHD (126926-H)`. Only a
 * line that starts with the name and adds a legal form to it.
 */
function fullLegalName(name: string, summary: Field[]): string {
  const block = summary.find(
    (f) => f.type === 'VENDOR_ADDRESS' || (f.type === 'ADDRESS' && f.groups.includes('VENDOR')),
  );
  const firstLine = block?.raw.split('\n')[0];
  if (!firstLine) return name;
  const full = tidyMerchantName(trimPunctuation(cleanText(firstLine)));
  if (!normKey(full).startsWith(`${normKey(name)} `)) return name;
  const added = full.slice(name.length).toUpperCase();
  return LEGAL_ENTITY_RE.test(added) ? full : name;
}

function firstCurrencyCode(summary: Field[]): string | null {
  const counts = new Map<string, number>();
  for (const f of summary) if (f.currency) counts.set(f.currency, (counts.get(f.currency) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

const MONTH_FIRST_CURRENCIES = new Set(['USD', 'PHP']);
const DATE_TYPES = ['INVOICE_RECEIPT_DATE', 'ORDER_DATE', 'DUE_DATE', 'DELIVERY_DATE'];

/** Month first for US and Philippine documents, or when a date on the document proves that order. */
function dateOrder(summary: Field[], country: string | null, currency: string | null): DateOrder {
  if (country) return MONTH_FIRST_COUNTRIES.has(country) ? 'mdy' : 'dmy';
  for (const f of summary) {
    if (!DATE_TYPES.includes(f.type)) continue;
    for (const d of findDates(f.value, 'dmy')) {
      if (!d.certain) continue;
      const numeric = /^(\d{1,2})\D(\d{1,2})\D/.exec(d.text.trim());
      if (numeric) return Number(numeric[1]) > 12 ? 'dmy' : 'mdy';
    }
  }
  return currency && MONTH_FIRST_CURRENCIES.has(currency) ? 'mdy' : 'dmy';
}

/** Labels of a total after rounding or of the net amount due: these beat a plain TOTAL. */
const ROUNDED_TOTAL =
  /\b(total rounded|rounded total|nett? total|total nett?|total after rounding|total pembulatan|jumlah bundar|summe gerundet)\b/;
/** Labels of the change given back, in the languages of the receipts we read. */
const CHANGE = /\b(change|kembali|kembalian|baki|monnaie|rendu|wechselgeld|ruckgeld|zuruck|cambio|vuelto)\b/;

/** How much a label says "this is the amount to pay" (see {@link mapAnalyzeExpense}). */
function totalScore(f: Field): number {
  const typeBonus = f.type === 'TOTAL' ? 0 : f.type === 'AMOUNT_DUE' ? -0.25 : -0.5;
  // What a label adds in brackets is a note: `TOTAL (Qty 2)`, `Total Sales (Inclusive GST)`.
  const label = normKey((f.label ?? '').replace(/\([^)]*\)?/g, ' '));
  if (label === '') return 2 + typeBonus;
  if (ROUNDED_TOTAL.test(label)) return 4;
  if (/\b(sub ?total|subtotal|before tax|excl|excluding|net amount)\b/.test(label)) return -3;
  if (CHANGE.test(label)) return -3;
  if (
    /\b(savings?|saved|you save|discounts?|diskon|rebate|points?|items?|qty|quantity|tips?|gratuity|deposit|rounding)\b/.test(
      label,
    )
  ) {
    return -3;
  }
  if (
    /\b(tax|vat|gst|sst|hst|pst|btw|tva|mwst|ppn|pb1)\b/.test(label) &&
    !/\b(incl|including|inclusive|inc|with|after)\b/.test(label)
  ) {
    return -2;
  }
  if (
    /\b(cash|tend|tendered|card|visa|mastercard|amex|credit|debit|payment|paid by|tunai|bayar|debet)\b/.test(
      label,
    ) &&
    !/\btotal\b/.test(label)
  ) {
    return 0 + typeBonus;
  }
  if (/\bbalance\b/.test(label) && !/\bdue\b/.test(label)) return -1;
  if (/\b(charges?|fees?)\b/.test(label)) return 1;
  if (/\b(total|due|payable|to pay|paid|jumlah|facture)\b/.test(label)) return 3 + typeBonus;
  return 1.5 + typeBonus;
}

/** The total chosen, its amount, and what the receipt's other figures say of it. */
interface ChosenTotal {
  /** The field it was printed in; absent when it is derived (tender minus change, subtotal plus tax). */
  field: Field | undefined;
  amount: number;
  verdict: TotalVerdict;
}

const ROUNDING = /\b(rounding|round adj\w*|adj\w* round\w*|round off|pembulatan|pelarasan|rundung)\b/;
const DISCOUNT =
  /\b(savings?|saved|you save|discounts?|diskon|potongan|rabatt?|rebate|remise|descuento|voucher|coupon)\b/;
const NOT_MONEY = /\b(points?|items?|qty|quantity|deposit|pcs)\b/;
const TIP = /\b(tips?|gratuity)\b/;
const CHARGE = /\b(service|svc|charges?|fees?)\b/;
const TENDER =
  /\b(cash|tend|tendered|card|visa|master|mastercard|amex|credit|debit|payment|paid by|tunai|bayar|debet|bar|gegeben|ec|girocard)\b/;
const TOTAL_WORD = /\b(total|due|payable|to pay|jumlah|summe|grand)\b/;

/**
 * The figures of the summary block, each classed by its label and Textract's field type (see
 * `weighTotal` in core): totals (weighted by {@link totalScore}), tenders, change, subtotals,
 * discounts, charges, rounding, and the tax (as {@link mapTaxes} adds it up). A payment line whose
 * label names a total too (`TOTAL PAID`) is both a tender and a weak total; a total whose amount did
 * not read is a figure without a value.
 */
function summaryFigures(summary: Field[], ctx: MoneyContext, tax: number | null): Figure[] {
  const figures: Figure[] = [];
  if (tax !== null && tax > 0) figures.push({ kind: 'tax', value: tax });
  summary.forEach((f, source) => {
    if (
      ![
        'TOTAL',
        'AMOUNT_DUE',
        'AMOUNT_PAID',
        'SUBTOTAL',
        'OTHER',
        'DISCOUNT',
        'SERVICE_CHARGE',
        'SHIPPING_HANDLING_CHARGE',
      ].includes(f.type)
    )
      return;
    const label = normKey((f.label ?? '').replace(/\([^)]*\)?/g, ' '));
    const value = money(f.value, ctx);
    // Lower on the page, then later in the response, as one number: the later printing of a total wins ties.
    const at = f.page * 1e6 + ((f.top ?? -1) + 1) * 1e5 + source;
    const push = (kind: Figure['kind'], weight?: number) =>
      figures.push({ kind, value, source, at, ...(weight === undefined ? {} : { weight }) });
    if (f.type === 'OTHER') {
      if (value === null) return;
      if (ROUNDED_TOTAL.test(label)) push('total', 4);
      else if (CHANGE.test(label)) push('change');
      else if (ROUNDING.test(label)) push('rounding');
      else if (DISCOUNT.test(label)) push('discount');
      return;
    }
    if (f.type === 'DISCOUNT') return value === null ? undefined : push('discount');
    if (f.type === 'SERVICE_CHARGE' || f.type === 'SHIPPING_HANDLING_CHARGE')
      return value === null ? undefined : push('charge');
    if (CHANGE.test(label)) return value === null ? undefined : push('change');
    if (ROUNDED_TOTAL.test(label)) return push('total', 4);
    if (ROUNDING.test(label)) return value === null ? undefined : push('rounding');
    if (f.type === 'SUBTOTAL' || /\b(sub ?total|subtotal|before tax|excl|excluding|net amount)\b/.test(label))
      return value === null ? undefined : push('subtotal');
    if (DISCOUNT.test(label)) return value === null ? undefined : push('discount');
    if (NOT_MONEY.test(label) || TIP.test(label)) return;
    if (CHARGE.test(label) && !TOTAL_WORD.test(label)) return value === null ? undefined : push('charge');
    if (TENDER.test(label) || (f.type === 'AMOUNT_PAID' && !TOTAL_WORD.test(label))) {
      if (value !== null) push('tender');
      // A payment labelled as a total (`TOTAL PAID`), or one Textract typed as the total, may be the total.
      if (TOTAL_WORD.test(label) || f.type === 'TOTAL') push('total', 0.5);
      return;
    }
    push('total', Math.max(0, totalScore(f)));
  });
  return figures;
}

/**
 * The amount to pay, by the evidence of the whole summary block ({@link summaryFigures}, weighed by
 * core's `weighTotal` with the items' sum): the amount the most independent figures agree with, the
 * labels' weight deciding between equally supported ones. A printed total a cash rounding away from
 * the tender minus the change is the rounded amount paid.
 */
function chooseTotal(
  summary: Field[],
  ctx: MoneyContext,
  tax: number | null,
  itemSum: number | null,
): ChosenTotal | undefined {
  const figures = summaryFigures(summary, ctx, tax);
  const verdict = weighTotal(figures, { itemSum, rounding: ctx.wholeUnits ? 0 : 0.1 });
  if (verdict.value === null) return undefined;
  const fields = summary.filter((_, source) =>
    figures.some((g) => g.source === source && g.kind === 'total' && g.value === verdict.value),
  );
  const field = [...fields].sort(
    (a, b) =>
      totalScore(b) - totalScore(a) || b.page - a.page || (b.top ?? -1) - (a.top ?? -1) || b.order - a.order,
  )[0];
  let amount = verdict.value;
  const paid = amountPaid(summary, ctx);
  if (paid !== null && paid > 0 && !ctx.wholeUnits) {
    const gap = Math.abs(paid - amount);
    if (gap >= 0.005 && gap < 0.1) amount = roundMoney(paid);
  }
  return { field, amount, verdict };
}

/**
 * The tender minus the change given back, when the receipt prints both; else null. Of several
 * tenders (the cash paid, then the cash handed over), the change comes out of the largest.
 */
function amountPaid(summary: Field[], ctx: MoneyContext): number | null {
  const change = summary.find(
    (f) =>
      (f.type === 'OTHER' || f.type === 'AMOUNT_PAID') &&
      CHANGE.test(normKey(f.label)) &&
      money(f.value, ctx) !== null,
  );
  const tenders = summary
    .filter(
      (f) =>
        f.type === 'AMOUNT_PAID' &&
        f !== change &&
        !CHANGE.test(normKey(f.label)) &&
        (money(f.value, ctx) ?? 0) > 0,
    )
    .map((f) => money(f.value, ctx)!);
  if (!change || tenders.length === 0) return null;
  return roundMoney(Math.max(...tenders) - Math.abs(money(change.value, ctx)!));
}

function chooseSubtotal(summary: Field[], ctx: MoneyContext): Field | undefined {
  const candidates = summary.filter((f) => f.type === 'SUBTOTAL' && money(f.value, ctx) !== null);
  return candidates.find((f) => /sub/i.test(f.label ?? '')) ?? candidates[0];
}

function mapTaxes(
  summary: Field[],
  ctx: MoneyContext,
): { total: number | null; lines: AnalyzedTax[]; fields: Field[] } {
  const seen = new Set<string>();
  const fields: Field[] = [];
  const lines: AnalyzedTax[] = [];
  for (const f of summary) {
    if (f.type !== 'TAX') continue;
    const parsed = taxValue(f, ctx);
    if (!parsed) continue;
    // Textract repeats a field it reads twice; the same label, amount and place is one tax line.
    const key = `${normKey(f.label)}|${parsed.amount}|${f.page}|${f.top === null ? '' : f.top.toFixed(3)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    fields.push(f);
    lines.push({
      description: f.label ? trimPunctuation(f.label) : 'Tax',
      rate: parsed.rate,
      amount: parsed.amount,
    });
  }
  if (lines.length === 0) return { total: null, lines, fields };
  const totalLine = lines.findIndex((l) => /\btotal\b/i.test(l.description));
  if (totalLine >= 0) return { total: lines[totalLine]!.amount, lines, fields };
  return { total: roundMoney(lines.reduce((s, l) => s + (l.amount ?? 0), 0)), lines, fields };
}

function taxValue(f: Field, ctx: MoneyContext): { amount: number; rate: number | null } | null {
  const percent = /(\d{1,2}(?:[.,]\d{1,3})?)\s?%/;
  let value = f.value;
  let rate: number | null = null;
  const inValue = /^\s*(\d{1,2}(?:[.,]\d{1,3})?)\s?%\s*(.*)$/.exec(value);
  if (inValue) {
    rate = Number(inValue[1]!.replace(',', '.'));
    value = inValue[2]!;
  }
  const inLabel = percent.exec(f.label ?? '');
  if (rate === null && inLabel) rate = Number(inLabel[1]!.replace(',', '.'));
  const amount = money(value, ctx);
  return amount === null ? null : { amount, rate };
}

const NOT_THE_RECEIPT_DATE =
  /\b(due|birth|dob|exp|expiry|expiration|expires|valid|service|delivery|ship|shipping)\b/i;

/**
 * The receipt's date (see {@link mapAnalyzeExpense}), and whether another date field of the receipt
 * gives the same day (a date printed twice is surer).
 */
function chooseDate(
  summary: Field[],
  order: DateOrder,
): { iso: string; field: Field; printedAgain: boolean } | undefined {
  const found = firstDate(summary, order);
  if (!found) return undefined;
  const printedAgain = summary.some(
    (f) =>
      f !== found.field &&
      (f.type === 'INVOICE_RECEIPT_DATE' || f.type === 'ORDER_DATE') &&
      parseDate(f.value, order) === found.iso,
  );
  return { ...found, printedAgain };
}

function firstDate(summary: Field[], order: DateOrder): { iso: string; field: Field } | undefined {
  for (const type of ['INVOICE_RECEIPT_DATE', 'ORDER_DATE']) {
    for (const f of summary) {
      if (f.type !== type) continue;
      const iso = parseDate(f.value, order);
      if (iso) return { iso, field: f };
    }
  }
  // Statements and clinic receipts put their date in OTHER fields: `Date of Visit`, `Statement Date …`.
  for (const f of summary) {
    if (f.type !== 'OTHER') continue;
    if (f.label && /\bdate\b/i.test(f.label) && !NOT_THE_RECEIPT_DATE.test(f.label)) {
      const iso = parseDate(f.value, order);
      if (iso) return { iso, field: f };
    }
    const text = `${f.label ?? ''} ${f.value}`;
    for (const m of text.matchAll(/\b(?:(\p{L}+)\s+)?date\s*[:#]?\s*/giu)) {
      if (m[1] && NOT_THE_RECEIPT_DATE.test(m[1])) continue;
      const after = text.slice((m.index ?? 0) + m[0].length);
      const found = findDates(after, order)[0];
      if (found && found.index === 0) return { iso: found.iso, field: f };
    }
  }
  return undefined;
}

/** A date's shape, read or not: three numbers joined by `/ . -` (`31/13/2O19` too), or a month's name by a number. */
const DATE_LIKE =
  /\b\d{1,4}\s?[./-]\s?[\dOo]{1,2}\s?[./-]\s?[\dOo]{2,4}\b|\b\d{1,2}\s?(jan|feb|mar|apr|may|mei|jun|jul|aug|agu|agt|sep|oct|okt|nov|dec|des)[a-z]*\.?\s?\d{2,4}\b|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s\d{1,2},?\s\d{2,4}\b/i;
/** Labels that name a date in the languages of the receipts we read. */
const DATE_LABEL = /\b(date|dated|tanggal|tgl|tarikh|datum|fecha|data)\b/i;

/**
 * Whether the receipt prints a date, read or not: a date field with a value, a field labelled as a
 * date, or text shaped like one in the summary or the page's lines. A receipt that prints none may
 * take its upload day (core's `uploadDateFor`); one whose date did not read is flagged instead.
 */
function printsDate(summary: Field[], documents: ExpenseDocument[]): boolean {
  const lines = documents
    .flatMap((d) => records<Block>(d.Blocks))
    .filter((b) => b.BlockType === 'LINE')
    .map((b) => text(b.Text) ?? '');
  return (
    summary.some(
      (f) =>
        (DATE_TYPES.includes(f.type) && f.value !== '') ||
        DATE_LABEL.test(f.label ?? '') ||
        DATE_LIKE.test(`${f.label ?? ''} ${f.value}`),
    ) || lines.some((line) => DATE_LIKE.test(line) || DATE_LABEL.test(line))
  );
}

/**
 * The known chain the receipt names (core's `findChainEvidence`): over the response's text lines when
 * it has them, else over its summary fields' values; applied to the vendor name read
 * (`merchantOfChain`).
 */
function chainOfReceipt(
  documents: ExpenseDocument[],
  summary: Field[],
  vendor: string | null,
  chains: ChainLookup,
): ChainMerchant | null {
  const blockLines = documents
    .flatMap((d) => records<Block>(d.Blocks))
    .filter((b) => b.BlockType === 'LINE')
    .map((b) => text(b.Text) ?? '');
  const lines = blockLines.length > 0 ? blockLines : summary.flatMap((f) => f.value.split('\n'));
  const evidence = findChainEvidence(lines, chains);
  return evidence ? merchantOfChain(vendor, evidence, chains) : null;
}

function chooseTime(summary: Field[], documents: ExpenseDocument[]): string | null {
  for (const f of summary) {
    if (f.type !== 'INVOICE_RECEIPT_DATE' && f.type !== 'ORDER_DATE') continue;
    const time = findTimes(f.value)[0];
    if (time) return time.value;
  }
  // Only a time printed with the date, or on the line after it: opening hours are times too.
  const lines = documents
    .flatMap((d) => records<Block>(d.Blocks))
    .filter((b) => b.BlockType === 'LINE')
    .map((b) => text(b.Text) ?? '');
  for (let i = 0; i < lines.length; i++) {
    if (findDates(lines[i]!).length === 0) continue;
    const time = findTimes(lines[i]!)[0] ?? findTimes(lines[i + 1] ?? '')[0];
    if (time) return time.value;
  }
  return null;
}

function docType(summary: Field[]): string {
  const invoiceLike = summary.some(
    (f) =>
      f.type === 'DUE_DATE' ||
      f.type === 'PO_NUMBER' ||
      f.type === 'PAYMENT_TERMS' ||
      /\binvoice\b/i.test(f.label ?? '') ||
      (f.type === 'INVOICE_RECEIPT_ID' && /\binvoice\b/i.test(f.value)),
  );
  return invoiceLike ? 'invoice' : 'receipt';
}

/**
 * The rules that read an item row beyond the fields Textract typed, each about the structure of a
 * receipt's item list, not about one receipt (the README lists them with the dev receipts each
 * changes). Named so that a measurement can leave one out (`without`) and count what it changes
 * (`npm run textract:rules`).
 *
 * - `code-in-name`: a product code printed in the name column is the item's code, not its name:
 *   Textract's PRODUCT_CODE (of several, the first printed after the name on the row) is taken out
 *   of the description, and so is a stock code before the name (`HPL500 RICE CASE 7L`); a code
 *   joined by a hyphen to the name's first word (`5003-Chokoreto Cookies`) is printed as part of it.
 * - `count-in-name`: a row without a QUANTITY field may print its count in the name column: before
 *   the name with a unit (`6 Pcs Cheese Tart`, `2 x`) or after it, when the row's arithmetic gives
 *   that count (`Propolis Cair 1` at 156000 each, 156000).
 * - `not-a-purchase`: a row named by a summary, payment or discount label (`DISKON (20%)`,
 *   `Discount`, `SUBTOTAL`, `CASH`) takes money off or sums the rows above: it is no item.
 *   A discount row's amount is a discount under the item above (`rowDiscount`), one of the
 *   receipt's adjustments.
 * - `free-add-on`: a row priced 0 with no unit price (a choice or topping of the item above, `NATA
 *   DE COCO 0`; OCR reads that lone 0 as the letter o) is part of the item above, not an item.
 * - `amount-from-arithmetic`: see {@link amountsToSum}.
 * - `wrapped-name`, `tilted-row`: which lines of the row make the item's name (a section heading
 *   above it, a line it wrapped to, pieces read off a tilted line): see `nameFromRow`.
 */
export const ITEM_RULES = [
  'code-in-name',
  'count-in-name',
  'not-a-purchase',
  'free-add-on',
  'amount-from-arithmetic',
  'wrapped-name',
  'tilted-row',
] as const;
export type ItemRule = (typeof ITEM_RULES)[number];

interface MappedItem {
  item: AnalyzedItem;
  descriptionField: Field | undefined;
  priceField: Field | undefined;
}

/** A row that is no item: a discount under the item above it (see `rowDiscount`). */
interface DiscountLine {
  discountRow: Omit<DiscountRow, 'itemAmount'>;
}

/** Names that take money off the row above: a discount, whatever follows (`DISKON (20%)`). */
const DISCOUNT_ROW = /^\W*(discount|diskon|disc|potongan|rabatt?|remise|descuento)\b/i;
/** A summary or payment label alone, maybe with a rate or a colon: a line of the summary block. */
const SUMMARY_ROW =
  /^\W*(sub ?total|total|grand total|total due|amount due|tax|vat|gst|sst|ppn|pb1|service charge|cash|tunai|change|kembali(an)?|rounding|pembulatan|balance|payment)\b[\s\d.,:%()/-]*$/i;

/**
 * One line item from its fields, with the rules of {@link ITEM_RULES} that `rules` holds. A row
 * without a description field is named by the line of its row text that holds its price (the lines
 * under it are notes). Quantity × unit price = amount fills in the value not printed (see
 * `completeLinePrices`).
 */
function mapLineItem(
  lineItem: LineItemFields,
  ctx: MoneyContext,
  rules: ReadonlySet<ItemRule>,
  nameWidth: number,
): MappedItem | DiscountLine | null {
  const fields = records<ExpenseField>(lineItem.LineItemExpenseFields).map((f, i) => toField(f, i));
  const first = (...types: string[]) => {
    for (const type of types) {
      const found = fields.find((f) => f.type === type && f.value !== '');
      if (found) return found;
    }
    return undefined;
  };
  const row = fields.find((f) => f.type === 'EXPENSE_ROW');
  const rawRow = row?.raw ?? '';
  const descriptionField = first('ITEM', 'DESCRIPTION');
  const priceField = first('PRICE', 'TOTAL', 'AMOUNT');
  const quantityField = first('QUANTITY');
  const unitField = first('UNIT_PRICE');
  const codes = rules.has('code-in-name');
  const printedCode = productCode(fields, rawRow, descriptionField, codes);
  // A code joined to the first word of the name (`5003-Chokoreto Cookies`) is printed as part of it.
  const joined = printedCode && codes ? CODE_JOINED_TO_NAME.exec(printedCode) : null;
  let code = joined ? joined[1]! : printedCode;

  let description = descriptionField
    ? nameFromRow(
        {
          name: descriptionField.raw,
          row: rawRow,
          amount: priceField?.value ?? null,
          figures: [unitField, quantityField].flatMap((f) => (f ? [f.value] : [])),
        },
        nameWidth,
        {
          wrappedName: rules.has('wrapped-name'),
          tiltedRow: rules.has('tilted-row'),
        },
      )
    : '';
  if (code && !joined && codes) description = description.split(code).join(' ');
  if (description.trim() === '' && row) {
    const priceLine = priceField
      ? rawRow.split('\n').find((line) => cleanText(line).includes(priceField.value))
      : undefined;
    description = priceField
      ? cleanText(priceLine ?? rawRow)
          .split(priceField.value)
          .join(' ')
      : row.value;
  }
  description = cleanText(description);
  let quantity = parseQuantity(quantityField?.value);
  if (quantity === null && rules.has('count-in-name')) {
    // The count printed before the name (`6 Pcs Cheese Tart`).
    const counted = LEADING_COUNT.exec(description);
    if (counted) {
      quantity = Number(counted[1]);
      description = description.slice(counted[0].length);
    }
  }
  if (!code && codes) {
    // A stock code printed before the name (`HPL500 RICE CASE 7L W/CUP`).
    const sku = LEADING_SKU.exec(description);
    if (sku) {
      code = sku[1]!;
      description = description.slice(sku[0].length);
    }
  }
  const unitPrice = unitField ? money(unitField.value, ctx) : null;
  const freeAddOn = rules.has('free-add-on');
  // OCR reads the lone 0 of an add-on's price as the letter o.
  const total = priceField
    ? freeAddOn && unitPrice === null && /^[oO]$/.test(priceField.value)
      ? 0
      : money(priceField.value, ctx)
    : null;
  if (description === '' && total === null) return null;
  if (rules.has('not-a-purchase') && DISCOUNT_ROW.test(description)) {
    const rate = /(\d{1,2}(?:[.,]\d+)?)\s?%/.exec(description)?.[1];
    return { discountRow: { amount: total, rate: rate ? Number(rate.replace(',', '.')) : null } };
  }
  if (rules.has('not-a-purchase') && SUMMARY_ROW.test(description)) return null;
  if (freeAddOn && total === 0 && unitPrice === null) return null;
  const completed = completeLinePrices({ quantity, unitPrice, total });
  if (quantityField === undefined && completed.quantity !== null && rules.has('count-in-name')) {
    // The quantity printed at the end of the description (`Propolis Cair 1`).
    description = description.replace(new RegExp(`\\s+${completed.quantity}$`), '');
  }
  return {
    item: {
      description,
      quantity: completed.quantity,
      unit_price: completed.unitPrice,
      total_price: completed.total,
      product_identifier: code,
    },
    descriptionField,
    priceField,
  };
}

/**
 * One item's misread amount (`€0.000` for `60.000`) read back from the receipt's own arithmetic: when
 * the items do not add up to `target` (the subtotal, else a total without tax) and exactly one item's
 * amount disagrees with its own quantity times unit price, the amount that makes them add up is
 * taken, if it is a figure printed on that row: its unit price (then the row's one price was the
 * amount, and the unit price is derived from it) or its quantity times unit price. Otherwise the
 * items stay as read: also when any item's amount is unread (it may be the one missing), or when the
 * odd item is a discount (a negative amount) or has no count or unit price above zero. Items that
 * change are new objects; the others are returned as they are.
 */
export function amountsToSum(items: AnalyzedItem[], target: number): AnalyzedItem[] {
  const near = (a: number, b: number) => Math.abs(a - b) < 0.005;
  // An item whose amount was not read at all may be what is missing: nothing tells which.
  if (items.some((i) => i.total_price === null)) return items;
  const sum = roundMoney(items.reduce((s, i) => s + i.total_price!, 0));
  if (near(sum, target)) return items;
  const odd = items.filter(
    (i) =>
      i.quantity !== null &&
      i.unit_price !== null &&
      !near(i.total_price!, roundMoney(i.quantity * i.unit_price)),
  );
  if (odd.length !== 1) return items;
  const item = odd[0]!;
  // A discount row (a negative amount under a positive unit price), or no count, is no misreading.
  if (item.total_price! < 0 || item.quantity! <= 0 || item.unit_price! <= 0) return items;
  const needed = roundMoney(target - (sum - item.total_price!));
  if (needed <= 0) return items;
  const line = near(needed, roundMoney(item.quantity! * item.unit_price!))
    ? { quantity: item.quantity, unitPrice: item.unit_price, total: needed }
    : near(needed, item.unit_price!)
      ? completeLinePrices({ quantity: item.quantity, unitPrice: null, total: needed })
      : null;
  if (!line) return items;
  return items.map((i) =>
    i === item ? { ...i, quantity: line.quantity, unit_price: line.unitPrice, total_price: line.total } : i,
  );
}

/** A quantity as printed: `2`, `1x`, `x1`, `8 PCS`, `1.5 kg`; OCR's `i`, `l` or `I` for a lone 1. */
function parseQuantity(text: string | undefined): number | null {
  if (!text) return null;
  if (/^\s*[iIl|]\s*[xX]?\s*$/.test(text)) return 1;
  const m = /^\s*(?:x\s*)?(\d+(?:[.,]\d+)?)\s*(?:x|pcs?|ea|units?|kg|qty)?\.?\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]!.replace(',', '.'));
  return n > 0 ? n : null;
}

/** A product code whose digits are joined by a hyphen to the first word of the name. */
const CODE_JOINED_TO_NAME = /^(\d{3,})-\p{L}{3,}$/u;
/** A count with its unit before an item's name: `6 Pcs`, `2 x`, `3x`. */
const LEADING_COUNT = /^(\d{1,3})\s*(?:pcs?|x)\.?\s+(?=\p{L})/iu;
/** A stock code before an item's name: capitals, then at least three digits (`HPL754DR`), then the name's words. */
const LEADING_SKU = /^([A-Z]{2,}\d{3,}[A-Z0-9]*)\s+(?=\S+\s+\S)/;

/**
 * The item's own product code: of the PRODUCT_CODE values, the one printed first after the item's
 * description on its row (Textract sometimes attaches the next item's code as well).
 */
function productCode(
  fields: Field[],
  row: string,
  description: Field | undefined,
  ownOfSeveral: boolean,
): string | null {
  const codes = [
    ...new Set(fields.filter((f) => f.type === 'PRODUCT_CODE' && f.value !== '').map((f) => f.value)),
  ];
  if (codes.length <= 1 || !ownOfSeveral) return codes[0] ?? null;
  const firstLine = description?.value.split(' ')[0] ?? '';
  const from = Math.max(0, firstLine ? row.indexOf(firstLine) : 0);
  const ranked = codes
    .map((c) => ({ c, at: row.indexOf(c, from) }))
    .filter((x) => x.at >= 0)
    .sort((a, b) => a.at - b.at);
  return ranked[0]?.c ?? codes[0]!;
}
