/**
 * Request schemas and answer types of the routes that belong to no one screen (spec §7 plus
 * retryScan and the storage admin routes): sign-in, push tokens, images, upload and scans, the event
 * log and the storage tester. The handlers validate with these; the web app imports the answer types.
 * The route table and shared limits are in ./routes (no zod), each route's answer type in ./answers.
 */
import * as z from 'zod';
import { idSchema, receiptIdSchema } from './ids';
import type { AppData, QueueEntry, User } from '../entities';

/** A plain file name: no path separators, no traversal, no leading dot. */
export const fileNameSchema = (label = 'fileName') =>
  z
    .string({ error: `${label} is required.` })
    .min(1, `${label} is required.`)
    .max(128, `${label} is too long.`)
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/,
      `${label} must be a plain file name such as 1700000000000-receipt.jpg (no folders, no '..').`,
    );

export const loginBody = z.object({
  user_id: idSchema('user_id'),
  user_email: z.string().max(320).default(''),
  user_name: z.string().max(200).default(''),
});
export type LoginBody = z.infer<typeof loginBody>;
export type LoginAnswer = Pick<User, 'user_id' | 'user_email'>;

export const registerFcmTokenBody = z.object({
  userId: idSchema('userId'),
  fcmToken: z.string().min(1, 'fcmToken is required.').max(4096, 'fcmToken is too long.'),
});

/** POST /api/unregisterFCMToken: the same fields as a registration. */
export const unregisterFcmTokenBody = registerFcmTokenBody;

export const userIdQuery = z.object({ userId: idSchema('userId') });

export const getImageQuery = z.object({
  userId: idSchema('userId'),
  blobName: fileNameSchema('blobName'),
  /** `1`: a picture to show (a PDF's first page as PNG, where the server can draw it), not the file. */
  preview: z
    .enum(['0', '1'], { error: 'preview must be 1 (a picture to show) or 0 (the stored file).' })
    .optional()
    .transform((v) => v === '1'),
});
/**
 * getImage answers a JSON string: a data URL to use as an image source. With `preview=1`, a PDF
 * comes back as a PNG of its first page when the server can draw one, else as the PDF itself.
 */
export type GetImageAnswer = string;

export const deleteReceiptQuery = z.object({
  receiptId: receiptIdSchema('receiptId'),
  userId: idSchema('userId'),
  blobName: fileNameSchema('blobName').optional(),
});
export interface DeleteReceiptAnswer {
  deleted: true;
  receiptId: string;
}

/** Limits of the `properties` of a client log event (POST /api/log, open to anyone). */
export const LOG_PROPERTIES_LIMITS = { depth: 3, keys: 50, chars: 4000 } as const;

/**
 * What is wrong with a log event's properties, or null: nested deeper than `depth` levels, more
 * than `keys` keys in all, or longer than `chars` as JSON. Walks without recursion and stops at the
 * first limit passed, so no input can make it deep or slow.
 */
export function logPropertiesProblem(properties: Record<string, unknown>): string | null {
  const { depth: maxDepth, keys: maxKeys, chars: maxChars } = LOG_PROPERTIES_LIMITS;
  const pending: [value: unknown, depth: number][] = [[properties, 1]];
  let keys = 0;
  let chars = 0;
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (value === null || typeof value !== 'object') {
      chars += typeof value === 'string' ? value.length + 2 : String(value).length;
    } else {
      if (depth > maxDepth) return `properties may nest at most ${maxDepth} levels.`;
      const entries = Array.isArray(value)
        ? value.map((v, i) => [String(i), v] as const)
        : Object.entries(value);
      keys += entries.length;
      if (keys > maxKeys) return `properties may hold at most ${maxKeys} keys and items in all.`;
      for (const [key, child] of entries) {
        chars += key.length + 4;
        pending.push([child, depth + 1]);
      }
    }
    if (chars > maxChars) return `properties may take at most ${maxChars} characters.`;
  }
  return null;
}

export const logBody = z.object({
  event: z.string().min(1, 'event is required.').max(200, 'event is too long.'),
  properties: z
    .record(z.string(), z.unknown())
    .optional()
    .superRefine((properties, ctx) => {
      const problem = properties && logPropertiesProblem(properties);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
});

export const uploadBody = z.object({
  userId: idSchema('userId'),
  imgSrc: z.string({ error: 'imgSrc (the image as a data URL) is required.' }).min(1, 'imgSrc is required.'),
  fileName: fileNameSchema('fileName'),
  /**
   * The person's own calendar day when the receipt was taken or picked (their device's time zone):
   * the date of a receipt that prints none. Not in the spec's body; optional.
   */
  day: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'day must be the day of the upload, written YYYY-MM-DD.')
    .optional(),
  /**
   * Sent by the file-picker variant of the spec; not read, so not kept (the body's nesting depth is
   * checked before parsing, see the handler).
   */
  appData: z
    .unknown()
    .optional()
    .transform(() => undefined),
});
export interface UploadAnswer {
  fileName: string;
  status: QueueEntry['status'];
}

export const retryScanBody = z.object({ userId: idSchema('userId'), fileName: fileNameSchema('fileName') });

/** DELETE /api/removeScan: a failed or stuck scan, with its image, out of the queue. */
export const removeScanQuery = z.object({ userId: idSchema('userId'), fileName: fileNameSchema('fileName') });
export interface RemoveScanAnswer {
  removed: true;
  fileName: string;
}

export type ListQueueAnswer = QueueEntry[];
export type GetAppDataAnswer = AppData;

/** Storage Tester (admin only). */
export const storageTableQuery = z.object({
  table: z
    .string({ error: 'table is required.' })
    .regex(/^[A-Za-z][A-Za-z0-9]{2,62}$/, 'table must be a table name (letters and digits).'),
});
export const storageDeleteQuery = storageTableQuery.extend({
  partitionKey: z.string().min(1, 'partitionKey is required.').max(512),
  rowKey: z.string().min(1, 'rowKey is required.').max(512),
});
export interface StorageRecord {
  partitionKey: string;
  rowKey: string;
  [property: string]: unknown;
}

/** POST /api/retryScan: the scan is queued again. */
export interface RetryScanAnswer {
  fileName: string;
  status: 'false';
}
