/**
 * Lines of receipt text, cleaned of the debris OCR leaves at their edges, and the vocabulary that
 * says what a line is (a total, a tax, a payment, an address…). The patterns tolerate the common
 * misreadings of thermal print (`TOLAL`, `T0TAL`, `TAX INVQICE`).
 */

export interface ReceiptLine {
  /** Position in the original text (0-based line number). */
  index: number;
  /** The cleaned text. */
  text: string;
  /** The cleaned text, upper-cased, for matching. */
  upper: string;
  /** OCR confidence of the line, 0..1, when known. */
  confidence: number | null;
  /** The words (text segments) the engine read on the line, left to right, with their boxes, when it gives them. */
  words?: readonly LineWord[];
}

/** A word or run of words an engine read as one piece, and its box `[left, top, right, bottom]` in pixels. */
export interface LineWord {
  text: string;
  box: readonly [number, number, number, number];
}

// Characters OCR produces from table rules, shadows and paper edges.
// A leading plus before a digit is an international phone prefix and stays.
const EDGE_JUNK =
  /^(?:[\s|[\]{}~_—–‘’“”"'`©®§¢!\\°*»«.,:;=-]|\+(?!\d))+|[\s|[\]{}~_—–‘’“”"`©®§¢!\\°»«,:;=+-]+$/g;

/** Splits receipt text into cleaned lines, dropping the empty ones; `words` are each line's boxes, by line number. */
export function toLines(
  text: string,
  confidences?: ReadonlyArray<number | null>,
  words?: ReadonlyArray<readonly LineWord[] | null | undefined>,
): ReceiptLine[] {
  const out: ReceiptLine[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const cleaned = cleanLine(raw);
    if (cleaned.length === 0) return;
    out.push({
      index,
      text: cleaned,
      upper: cleaned.toUpperCase(),
      confidence: confidences?.[index] ?? null,
      ...(words?.[index] ? { words: words[index] } : {}),
    });
  });
  return out;
}

/**
 * A full-width comma or full stop between digits as the decimal mark it stands for, closed up with
 * the digits. PaddleOCR's recogniser, whose dictionary is Chinese, reads `，` and `．` off Latin print
 * and often boxes the mark apart from the digits before it (`2 ，15C`): Unicode NFKC makes the mark
 * ASCII but leaves the space that splits the amount.
 */
export function closeFullWidthMarks(text: string): string {
  return text.replace(/(?<=\d)[ \t]?([，．])[ \t]?(?=\d)/g, (_, mark: string) => (mark === '，' ? ',' : '.'));
}

/** Trims junk at both ends, collapses spaces, and drops a stray lower-case letter before the text. */
export function cleanLine(raw: string): string {
  let s = raw.replace(/\t/g, ' ').replace(/\s+/g, ' ');
  for (let i = 0; i < 3; i++) {
    const before = s;
    s = s.replace(EDGE_JUNK, '');
    // `i : Dimiliki oleh…`, `a SR 1001…`: a lone lower-case letter is a speck, not a word.
    s = s.replace(/^[a-z]\s+(?:[:|]\s+)?(?=[A-Z0-9(])/, '');
    s = s.replace(/\s+[|[\]{}]+(?=\s|$)/g, '');
    if (s === before) break;
  }
  return s.trim();
}

/**
 * `TOTAL` as OCR reads it: `T0TAL`, `TOLAL`, `TOTAI`, `Tota1`, and from faint print whose T lost its
 * bar and O its top, `IUIAL`.
 */
export const TOTAL = String.raw`[TI][O0QU][TL1I][A4][L1I|]`;

const re = (source: string) => new RegExp(source);

export const SUBTOTAL_RE = re(
  String.raw`SUB[\s.\-]*${TOTAL}|\bSUB[\s.\-]*TOTA\b|\bSUBTTL\b|\bSUB[\s.\-]*TTL\b|\bEXCL(?:UDING|USIVE|\.)?\s*(?:OF\s*)?(?:GST|VAT|TAX|SST)|\bSUPPLIES\b|BEFORE\s*(?:TAX|GST|VAT)|\bNET\s*SALES\b|ZWISCHENSUMME|JUMLAH\s*KECIL`,
);
/** Totals that count things, not money. */
export const COUNT_RE = re(
  String.raw`${TOTAL}\s*(?:QTY|QUANTITY|ITEM|ITEMS|PCS|UNITS|COUNT|NO\.?\s*OF|SAVINGS?|SAVED|DISC)|\bITEM\s*\(?S?\)?\s*:|\bQTY\s*\(?S?\)?\s*:|\bNO\.?\s*(?:OF\s*)?ITEMS?\b|\bITEM\s*COUNT\b|\bYOU\s*SAVED?\b|\bTOTAL\s*POINTS\b`,
);
/** Lines naming the amount to pay. */
export const STRONG_TOTAL_RE = re(
  String.raw`GRAND\s*${TOTAL}|${TOTAL}\s*WITH\s*(?:GST|VAT|TAX|SST)|${TOTAL}\s*DUE|AMOUNT\s*DUE|BALANCE\s*DUE|${TOTAL}\s*(?:AMOUNT\s*)?PAYABLE|AMOUNT\s*PAYABLE|\bNETT?\s*${TOTAL}|ROUND(?:ED|ING)?\s*(?:ADJ\w*\s*)?\w?\s*${TOTAL}|${TOTAL}\s*AFTER|FINAL\s*${TOTAL}|${TOTAL}\b.*\bINCL|\bINCLUSIVE\s*(?:OF\s*)?(?:GST|VAT|TAX|SST)|${TOTAL}\s*TO\s*PAY|AMOUNT\s*TO\s*PAY|PLEASE\s*PAY|${TOTAL}\s*\(?INC\b|ZU\s*ZAHLEN|GESAMTSUMME|${TOTAL}\s*BAYAR|JUMLAH\s*(?:BESAR|PERLU\s*DIBAYAR|BUNDAR)|${TOTAL}\s*PEMBULATAN|GERUNDET`,
);
/** Words for the total in the languages of the receipts we expect (English, Malay, Dutch, French, German). */
export const TOTAL_WORD_RE = re(String.raw`${TOTAL}|\bTOTAAL\b|\bSUMME\b|\bJUMLAH\b|\bTOTALE\b|\bGESAMT`);
export const TOTAL_RE = re(String.raw`${TOTAL_WORD_RE.source}|\bAMOUNT\b|\bAMT\b|\bMONTANT\b|\bBETRAG\b`);
export const TAX_RE = re(
  String.raw`\b(?:GST|VAT|TAX|SST|HST|PST|QST|MWST|BTW|TVA|IVA|CST|G\.S\.T)\b|SALES\s*TAX|SERVICE\s*TAX`,
);
/** A tax word used as a heading, an identifier or a document title rather than an amount of tax. */
export const TAX_NOT_AMOUNT_RE = re(
  String.raw`TAX\s*INV|(?:GST|VAT|TAX|SST)\s*(?:ID|REG|NO\b|NUMBER|#|CODE|SUMMARY|ANALYSIS)|TAXABLE|(?:GST|VAT|TAX)\s*:\s*\d{6,}`,
);
export const ROUNDING_RE = re(
  String.raw`\bROUND(?:ING|\s*(?:ADJ|OFF))|\bRND\s*ADJ|\bADJ(?:USTMENT)?\s*ROUND|\bRUNDUNG\b|\bPEMBULATAN\b|\bPELARASAN\b`,
);
export const PAYMENT_RE = re(
  String.raw`\b(?:CASH|TENDER(?:ED)?|PAID|PAYMENT|CARD|VISA|MASTER(?:CARD)?|AMEX|DEBIT|CREDIT|EDC|E-?WALLET|GRABPAY|BOOST|CHEQUE|CHECK|VOUCHER|NETS|EFTPOS|CONTACTLESS|TUNAI|BAYAR(?:AN)?|KARTENZAHLUNG|EC-?KARTE|GIROCARD|EC-?CASH|ELEC\.?-?CASH|MAESTRO|KREDITKARTE|V\s?PAY|KARTU|KAD)\b|^\s*(?:BAR|GEGEBEN)\b`,
);
export const CHANGE_RE = re(
  String.raw`\bCHANGE\b|\bCHG\b|\bKEMBALI(?:AN)?\b|\bBALANCE\b(?!\s*DUE)|\bCHANGE\s*DUE\b|\bBAKI\b|R[ÜU]CKGELD|\bZUR[ÜU]CK\b`,
);
export const DISCOUNT_RE = re(
  String.raw`\bDISC(?:OUNT)?\b|\bSAVINGS?\b|\bCOUPON\b|\bPROMO|\bLESS\b|\bRABATT|PREISVORTEIL|\bDISKON\b|\bDISKAUN\b|\bPOTONGAN\b`,
);
export const SERVICE_RE = re(String.raw`SERVICE\s*CHARGE|\bSVC\b|\bSERV\.?\s*CHG|\bTIPS?\b|GRATUITY`);
/** Where a tax summary table starts: its rows repeat amounts that are not the total. */
export const SUMMARY_RE = re(
  String.raw`(?:GST|TAX|VAT|SST)\s*SUMMARY|SUMMARY\b|TAX\s*CODE|(?:GST|VAT)\s*ANALYSIS|TAXABLE\s*AM|\bTAX\s*RATE\b`,
);
export const DOC_TITLE_RE = re(
  String.raw`TAX\s*INV|\bINVOICE\b|\bRECEIPT\b|CASH\s*BILL|\bSIMPLIFIED\b|\bWELCOME\b|\bORIGINAL\b|\bCOPY\b|\bORDER\b|\bTABLE\b|\bCASHIER\b|\bBILL\s*(?:NO|#)|\bMEMBER|\bTHANK|\bADJUSTMENT\s*NOTE`,
);
export const PHONE_LABEL_RE = re(
  String.raw`(?:^|[\s(|])(?:TEL|TELEPHONE|PHONE|PH|T|HP|MOBILE|MOB|CALL)\b\s*[.:#]?`,
);
export const REGISTRATION_RE = re(
  String.raw`\b(?:GST|SST|VAT|TAX|ABN|ACN|EIN|TIN|BRN|UEN)\s*(?:ID|REG|NO|#|NUMBER)|\bC[O0](?:MPANY)?\.?\s*(?:REG|N[O0])\b|\bREG(?:ISTRATION)?\.?\s*(?:NO|#)|\(\s*\d{5,}[\s-]*[A-Z]\s*\)|^\d{5,}[\s-]?[A-Z]$`,
);

export { LEGAL_ENTITY_RE } from '@receipts/core';
export const BUSINESS_WORD_RE = re(
  String.raw`\b(?:RESTAURANT|RESTORAN|CAFE|COFFEE|BISTRO|BAKERY|BAKERIES|MART|MARKET|SUPERMARKET|HYPERMARKET|STORE|STORES|SHOP|HARDWARE|PHARMACY|GROCER|GROCERS|GROCERY|KEDAI|PERNIAGAAN|SYARIKAT|BOOK|BOOKS|PIZZA|PETROL|STATIONERY|KITCHEN|FOODS?|DELI|BAR|PUB|HOTEL|OUTLET|CENTRE|CENTER|PANTRY|BOUTIQUE)\b`,
);

const ADDRESS_WORD = String.raw`\bNO\.?\s?\d|\b(?:LOT|JALAN|JLN|JL|TAMAN|TMN|BANDAR|BDR|KAWASAN|PERINDUSTRIAN|SEKSYEN|LORONG|PERSIARAN|KAMPUNG|KG|BATU|MUKIM|STREET|ST|ROAD|RD|AVENUE|AVE|BLVD|BOULEVARD|LANE|DRIVE|WAY|HIGHWAY|HWY|PLAZA|MALL|FLOOR|FLR|LEVEL|UNIT|SUITE|STE|BLOCK|BLK|BUILDING|BLDG|SQUARE|PO\s*BOX|STRAAT|STRASSE|STR|RUE|PLACE|PLEIN|LAAN|WEG|KUALA\s+LUMPUR|SELANGOR|JOHOR|PENANG|PULAU\s+PINANG|PERAK|KEDAH|MELAKA|PAHANG|SABAH|SARAWAK|NEGERI\s+SEMBILAN|TERENGGANU|KELANTAN|PERLIS|PUTRAJAYA|DARUL\s+EHSAN|MALAYSIA|SINGAPORE)\b`;
export const ADDRESS_WORD_RE = re(ADDRESS_WORD);

/** Two-letter US state and territory codes, to recognise `SPRINGFIELD, IL 62704`. */
export const US_STATES = new Set(
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR'.split(
    ' ',
  ),
);
export const US_ZIP_RE = /(?:^|[\s,])([A-Z]{2})\.?\s+(\d{5}(?:-\d{4})?)\b/;
export const UK_POSTCODE_RE = /\b([A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2})\b/;
/** Malaysian and most European postcodes: 4 or 5 digits standing alone, usually before the town. */
export const NUMERIC_POSTCODE_RE = /(?:^|[\s,.])(\d{5}|\d{4})(?=[\s,.]|$)/;

/** Share of letters among the characters other than spaces and common punctuation. */
export function letterRatio(text: string): number {
  const chars = text.replace(/[\s.,()&'/:-]/g, '');
  if (chars.length === 0) return 0;
  return (chars.match(/\p{L}/gu)?.length ?? 0) / chars.length;
}

/** Share of upper-case letters among the letters. */
export function upperRatio(text: string): number {
  const letters = text.match(/\p{L}/gu) ?? [];
  if (letters.length === 0) return 0;
  return letters.filter((c) => c === c.toUpperCase() && c !== c.toLowerCase()).length / letters.length;
}
