import * as z from 'zod';

/** The id schemas every route's request shares; every other schema file of the contract imports them. */

/** A Firebase uid or one of our generated ids: letters, digits, '-' and '_'. */
export const idSchema = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .min(1, `${label} is required.`)
    .max(128, `${label} is too long.`)
    .regex(/^[A-Za-z0-9_-]+$/, `${label} may contain only letters, digits, '-' and '_'.`);

/**
 * A receipt id: the owner's user id, '~', and the file name of the upload
 * (e.g. `Xy12~1700000000000-receipt.jpg`).
 */
export const receiptIdSchema = (label = 'receiptId') =>
  z
    .string({ error: `${label} is required.` })
    .min(1, `${label} is required.`)
    .max(260, `${label} is too long.`)
    .regex(
      /^[A-Za-z0-9_-]+~[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/,
      `${label} must be a receipt id as getAppData answers it (user id, '~', file name).`,
    );
