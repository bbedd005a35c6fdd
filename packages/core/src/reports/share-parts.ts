import { shortHash } from '../repository/keys';
import { addRow, emptyStoredFigures, type StoredFigures } from './stored-figures';

/**
 * What each receipt adds to the receipts and items tables' figures, so that a patch of the first
 * pages (patch-pages.ts) can take a changed receipt's old figures out. Kept in {@link SHARE_PARTS}
 * parts by a hash of the receipt id, each a blob of its own: a patch reads and writes back only the
 * parts of the receipts it changes, so its cost follows the change, not the account (one part is
 * about 25 KB at 10,000 receipts, where all shares are 1.6 MB).
 */
export interface Share {
  merchant: string;
  /** The receipt's currency (`''` for none) and total. */
  currency: string;
  total: number | null;
  /** Its items' figures. */
  items: StoredFigures;
  /** Whether it needs review (the review list's figures hold it). */
  review: boolean;
}

/** One part of the shares, tagged with the data version it was last written at. */
export interface SharesPart {
  version: string;
  /** By receipt id. */
  shares: Record<string, Share>;
}

/**
 * What a patch needs of the shares besides the parts it reads, kept with the first pages (they are
 * read and written together): which version each part was last written at (a part of another
 * version than this names was written by a patch whose first pages were not, and is not used), and
 * each merchant's name as the rows show it and how many receipts it has.
 */
export interface SharesHead {
  /** By part: the data version that part's blob must carry. */
  parts: string[];
  /** By merchant id: `[name the receipts' rows show, receipts]`. */
  merchants: Record<string, [string, number]>;
}

/** Parts the shares are spread over. */
export const SHARE_PARTS = 64;

/** The part a receipt's share is kept in. */
export function partOf(receiptId: string): number {
  return Number.parseInt(shortHash(receiptId).slice(-4), 16) % SHARE_PARTS;
}

/** The share of one receipt and its items (an item without a currency is in its receipt's). */
export function shareOf(
  receipt: {
    merchant_id: string;
    currency_code: string | null;
    total_amount: number | null;
    needs_review?: boolean;
  },
  items: { currency_code: string | null; total_price: number | null; quantity: number | null }[],
): Share {
  const figures = emptyStoredFigures();
  for (const item of items) {
    addRow(figures, item.currency_code ?? receipt.currency_code, item.total_price, item.quantity);
  }
  return {
    merchant: receipt.merchant_id,
    currency: receipt.currency_code ?? '',
    total: receipt.total_amount,
    items: figures,
    review: receipt.needs_review === true,
  };
}

/** Every receipt's share, spread over the parts, with the head that names them (after a full build). */
export function sharesInParts(
  version: string,
  shares: Iterable<[string, Share]>,
  merchantNames: Record<string, string>,
): { head: SharesHead; parts: SharesPart[] } {
  const parts = Array.from({ length: SHARE_PARTS }, () => ({ version, shares: {} }) as SharesPart);
  const merchants: SharesHead['merchants'] = {};
  for (const [receiptId, share] of shares) {
    parts[partOf(receiptId)]!.shares[receiptId] = share;
    const use = (merchants[share.merchant] ??= [merchantNames[share.merchant] ?? '', 0]);
    use[1] += 1;
  }
  return { head: { parts: parts.map(() => version), merchants }, parts };
}
