/**
 * Request schemas and answer types of the routes that correct what the analyzer read: edit a
 * receipt and its items, move a receipt, rename and merge merchants, the review queue and "Analyse
 * again". Every edit carries the etag its values were read with; a stale one is answered 409 with
 * STALE_EDIT_MESSAGE. No Node APIs here (the web app imports it for its forms).
 */
import * as z from 'zod';
import { idSchema, receiptIdSchema } from './ids';
import { isCurrencyCode } from '../parsing/currency';
import { isoDate } from '../parsing/parse-date';
import { isWellFormedText, MALFORMED_TEXT_MESSAGE } from '../well-formed-text';

/** What a person is told when their edit was made on values someone else has changed since. */
export const STALE_EDIT_MESSAGE = 'This receipt was changed elsewhere; reload to see the new values';
/** The same for a merchant. */
export const STALE_MERCHANT_MESSAGE = 'This merchant was changed elsewhere; reload to see the new values';

/** Longest item description accepted. */
export const MAX_DESCRIPTION_CHARS = 500;
/** Largest amount accepted (a typo guard, far above any receipt). */
export const MAX_AMOUNT = 1_000_000_000;

/** The receipt fields a person can set; the `edited` list of a receipt names them. */
export const EDITABLE_RECEIPT_FIELDS = [
  'merchant_name',
  'transaction_date',
  'transaction_time',
  'total_amount',
  'total_tax',
  'currency_code',
  'receipt_type',
  'doc_type',
] as const;
export type EditableReceiptField = (typeof EDITABLE_RECEIPT_FIELDS)[number];

/** Words for a person, per edited field (the Receipt page lists which values a person set). */
export const EDITED_FIELD_TEXT: Record<string, string> = {
  merchant_name: 'Merchant',
  transaction_date: 'Date',
  transaction_time: 'Time',
  total_amount: 'Total',
  total_tax: 'Tax',
  currency_code: 'Currency',
  receipt_type: 'Category',
  doc_type: 'Document type',
  items: 'Items',
  merchant: 'Merchant',
};

const etagSchema = z
  .string({ error: 'etag is required: reload the receipt and edit it again.' })
  .min(1, 'etag is required: reload the receipt and edit it again.')
  .max(512, 'etag is too long.');

const amount = (label: string) =>
  z
    .number({ error: `${label} must be a number, e.g. 12.50.` })
    .finite(`${label} must be a number, e.g. 12.50.`)
    .min(-MAX_AMOUNT, `${label} is too large.`)
    .max(MAX_AMOUNT, `${label} is too large.`);

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text.` })
    .max(max, `${label} may be at most ${max} characters.`)
    .refine(isWellFormedText, MALFORMED_TEXT_MESSAGE(label))
    .transform((value) => value.replace(/\s+/g, ' ').trim());

/** Blank text becomes null (a field the person emptied). */
const optionalText = (label: string, max: number) =>
  text(label, max)
    .nullable()
    .transform((value) => (value ? value : null));

export const dateSchema = z
  .string({ error: 'transaction_date must be a date written YYYY-MM-DD.' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'transaction_date must be a date written YYYY-MM-DD, e.g. 2024-03-15.')
  .refine((value) => {
    const [y, m, d] = value.split('-').map(Number);
    return isoDate(y!, m!, d!) === value;
  }, 'transaction_date is not a day of the calendar (between 1970 and 2099).');

export const timeSchema = z
  .string({ error: 'transaction_time must be a time written HH:MM or HH:MM:SS.' })
  .regex(
    /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/,
    'transaction_time must be a time written HH:MM or HH:MM:SS, e.g. 14:05.',
  )
  .transform((value) => (value.length === 5 ? `${value}:00` : value));

export const currencySchema = z
  .string({ error: 'currency_code must be a currency code such as EUR.' })
  .transform((value) => value.trim().toUpperCase())
  .refine(isCurrencyCode, 'currency_code is not a known ISO 4217 currency code (e.g. EUR, USD, GBP).');

/** The receipt fields an edit may set; absent fields stay as they are, null empties one. */
export const receiptChangesSchema = z
  .object({
    merchant_name: text('merchant_name', 200).refine((v) => v.length > 0, 'merchant_name is required.'),
    transaction_date: dateSchema.nullable(),
    transaction_time: timeSchema.nullable(),
    total_amount: amount('total_amount').nullable(),
    total_tax: amount('total_tax').nullable(),
    currency_code: currencySchema.nullable(),
    receipt_type: optionalText('receipt_type', 100),
    doc_type: optionalText('doc_type', 100),
  })
  .partial()
  .strict();
export type ReceiptChanges = z.infer<typeof receiptChangesSchema>;

/** Who edits which receipt, as read with which etag. */
const receiptEdit = {
  userId: idSchema('userId'),
  receiptId: receiptIdSchema('receiptId'),
  etag: etagSchema,
};

/** POST /api/updateReceipt: sets receipt fields (a new merchant name moves it to that merchant). */
export const updateReceiptBody = z.object({
  ...receiptEdit,
  changes: receiptChangesSchema.refine((c) => Object.keys(c).length > 0, 'changes must name a field to set.'),
});
export type UpdateReceiptBody = z.infer<typeof updateReceiptBody>;

/** An item id as getAppData answers it: the receipt id, '~' and a line number. */
export const itemIdSchema = z
  .string({ error: 'itemId is required.' })
  .min(1, 'itemId is required.')
  .max(300, 'itemId is too long.')
  .regex(
    /^[A-Za-z0-9_-]+~[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*~\d{1,6}$/,
    'itemId must be an item id as getAppData answers it.',
  );

export const itemFieldsSchema = z.object({
  description: text('description', MAX_DESCRIPTION_CHARS).refine(
    (v) => v.length > 0,
    'description is required.',
  ),
  quantity: z
    .number({ error: 'quantity must be a number, e.g. 2.' })
    .finite('quantity must be a number, e.g. 2.')
    .positive('quantity must be more than 0.')
    .max(1_000_000, 'quantity is too large.')
    .nullable(),
  unit_price: amount('unit_price').nullable(),
  total_price: amount('total_price').nullable(),
  brand: optionalText('brand', 200),
});
export type ItemFields = z.infer<typeof itemFieldsSchema>;

/** POST /api/saveItem: changes an item (with `itemId`) or adds one (without). */
export const saveItemBody = z.object({
  ...receiptEdit,
  itemId: itemIdSchema.optional(),
  item: itemFieldsSchema.strict(),
});
export type SaveItemBody = z.infer<typeof saveItemBody>;

/** Most items one save may list (far above any real receipt). */
export const MAX_RECEIPT_ITEMS = 500;

/** One item of a whole-receipt save: an item of the receipt (with `itemId`) or a new one (without). */
export const receiptItemSchema = z
  .object({ itemId: itemIdSchema.optional(), item: itemFieldsSchema.strict() })
  .strict();

/**
 * POST /api/saveReceipt: the whole edit form in one save, under the one etag the form was read
 * with. `changes` as for updateReceipt (may be empty); `items`, when given, is the receipt's full
 * list of items afterwards: items of the receipt left out are removed, items without an id added.
 */
export const saveReceiptBody = z
  .object({
    ...receiptEdit,
    changes: receiptChangesSchema.default({}),
    items: z
      .array(receiptItemSchema, { error: "items must be a list of the receipt's items." })
      .max(MAX_RECEIPT_ITEMS, `A receipt may have at most ${MAX_RECEIPT_ITEMS} items.`)
      .refine((items) => {
        const ids = items.flatMap((i) => (i.itemId ? [i.itemId] : []));
        return new Set(ids).size === ids.length;
      }, 'items names the same item twice.')
      .optional(),
  })
  .refine(
    (body) => Object.keys(body.changes).length > 0 || body.items !== undefined,
    'Nothing to save: send the changed fields, the items, or both.',
  );
export type SaveReceiptBody = z.infer<typeof saveReceiptBody>;

/** DELETE /api/deleteItem?userId=&receiptId=&itemId=&etag= */
export const deleteItemQuery = z.object({ ...receiptEdit, itemId: itemIdSchema });

/** POST /api/markReviewed: the person checked the receipt; it leaves the review queue. */
export const markReviewedBody = z.object(receiptEdit);

/** POST /api/keepBothReceipts: the receipt is not a duplicate of the one it looked like. */
export const keepBothReceiptsBody = z.object(receiptEdit);

/** POST /api/reanalyseReceipt: analyse the stored image again (fields a person set are kept). */
export const reanalyseReceiptBody = z.object(receiptEdit);

/** POST /api/moveReceipt: the receipt is from another of the user's merchants. */
export const moveReceiptBody = z.object({ ...receiptEdit, merchantId: idSchema('merchantId') });

/** POST /api/updateMerchant: rename a merchant and edit its address. */
export const updateMerchantBody = z.object({
  userId: idSchema('userId'),
  merchantId: idSchema('merchantId'),
  etag: etagSchema,
  changes: z
    .object({
      name: text('name', 200).refine((v) => v.length > 0, 'name is required.'),
      street_address: optionalText('street_address', 200),
      city: optionalText('city', 100),
      postal_code: optionalText('postal_code', 20),
      phone_number: optionalText('phone_number', 40),
    })
    .partial()
    .strict()
    .refine((c) => Object.keys(c).length > 0, 'changes must name a field to set.'),
});
export type UpdateMerchantBody = z.infer<typeof updateMerchantBody>;

/** POST /api/mergeMerchants: `duplicateId` is the same shop as `merchantId`; its receipts move. */
export const mergeMerchantsBody = z.object({
  userId: idSchema('userId'),
  merchantId: idSchema('merchantId'),
  etag: etagSchema,
  duplicateId: idSchema('duplicateId'),
  duplicateEtag: etagSchema,
});

/** GET /api/getAnalysis?userId=&receiptId=: the analysis as the analyzer wrote it. */
export const getAnalysisQuery = z.object({ userId: idSchema('userId'), receiptId: receiptIdSchema() });

/** What every receipt edit answers: the receipt's new etag. */
export interface ReceiptEditAnswer {
  receiptId: string;
  etag: string;
}
export interface MerchantEditAnswer {
  merchantId: string;
  etag: string;
}
export interface ReanalyseAnswer {
  receiptId: string;
  fileName: string;
  status: 'false';
}
/** One brand of the dataset, for the type-ahead. */
export interface BrandOption {
  name: string;
  owning_corporation: string | null;
  /**
   * Where another corporation owns the brand: country (ISO 3166-1 alpha-2) → owner. A brand with any
   * has no owner on a receipt whose country is not known.
   */
  owners_by_country?: Readonly<Record<string, string>>;
}
export type ListBrandsAnswer = BrandOption[];
