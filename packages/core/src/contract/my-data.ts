/**
 * Request schemas and answer types of the "My data" routes: GET /api/downloadMyData (a ZIP of all of
 * the caller's data) and POST /api/deleteAccount. No Node APIs here; the web app imports them.
 */
import * as z from 'zod';
import { idSchema } from './ids';

/** GET /api/downloadMyData?userId=&images=: the caller's data as a ZIP; `images=false` leaves images out. */
export const downloadMyDataQuery = z.object({
  userId: idSchema('userId'),
  images: z
    .enum(['true', 'false'], { error: "images must be 'true' or 'false'." })
    .default('true')
    .transform((value) => value === 'true'),
});
export type DownloadMyDataQuery = z.output<typeof downloadMyDataQuery>;

/**
 * The answer of GET /api/downloadMyData in the cloud: the ZIP was written to storage and `url`
 * downloads it until `expiresAt` (ISO 8601). Elsewhere the answer is the ZIP itself.
 */
export interface DownloadMyDataLink {
  url: string;
  expiresAt: string;
}

/** What the person types to confirm that the account and all its data are to be deleted. */
export const DELETE_ACCOUNT_CONFIRMATION = 'DELETE';

/** POST /api/deleteAccount: the account and every piece of its data, after a typed confirmation. */
export const deleteAccountBody = z.object({
  userId: idSchema('userId'),
  confirmation: z
    .string({ error: `confirmation is required: type ${DELETE_ACCOUNT_CONFIRMATION} to confirm.` })
    .max(100, 'confirmation is too long.')
    .refine((value) => value.trim() === DELETE_ACCOUNT_CONFIRMATION, {
      message: `To delete your account, type ${DELETE_ACCOUNT_CONFIRMATION} (in capital letters) in the confirmation box.`,
    }),
});
export type DeleteAccountBody = z.output<typeof deleteAccountBody>;

export interface DeleteAccountAnswer {
  deleted: true;
  /** What was removed, counted. */
  removed: { rows: number; blobs: number };
}
