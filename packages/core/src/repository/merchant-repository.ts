import { TABLES } from '../entities';
import { listAllEntities, type TableStore } from '../table-store';
import { merchantToRow, rowToMerchant, type MerchantRow } from './rows';
import type { ReceiptRepository } from './receipt-repository';
import { deleteRows, ignoreNotFound, withoutNulls } from './table-rows';

/**
 * The merchants aggregate: the user's merchants (Merchants, one partition per user). Which receipts
 * are of a merchant is the receipts' to say (ReceiptRepository.merchantHasReceipts).
 */
export class MerchantRepository {
  constructor(private readonly store: TableStore) {}

  async listMerchants(userId: string): Promise<MerchantRow[]> {
    return (await listAllEntities(this.store, TABLES.merchants, { partitionKey: userId })).map(rowToMerchant);
  }

  async getMerchant(userId: string, merchantId: string): Promise<MerchantRow | null> {
    const row = await this.store.getEntity(TABLES.merchants, userId, merchantId);
    return row ? rowToMerchant(row) : null;
  }

  /**
   * Writes the merchant, merging into the stored row: two scans of one shop at once each add what
   * they know, and neither erases the other's fields.
   */
  async saveMerchant(merchant: MerchantRow): Promise<void> {
    await this.store.upsertEntity(TABLES.merchants, withoutNulls(merchantToRow(merchant)), 'Merge');
  }

  /**
   * Replaces the merchant row only when it is unchanged since it was read with `etag`.
   * @throws ConflictError when another write came first, NotFoundError when the row is gone
   */
  async updateMerchant(merchant: MerchantRow, etag: string): Promise<string> {
    return (await this.store.updateEntity(TABLES.merchants, merchantToRow(merchant), 'Replace', { etag }))
      .etag;
  }

  /** Removes the merchant; with `etag`, only when it is unchanged since read (else ConflictError). */
  async deleteMerchant(userId: string, merchantId: string, etag?: string): Promise<void> {
    await ignoreNotFound(
      this.store.deleteEntity(TABLES.merchants, userId, merchantId, etag ? { etag } : undefined),
    );
  }

  /**
   * Deletes every merchant of the user (a few at once); one already gone is fine.
   * @returns how many were deleted
   */
  async deleteMerchantsOfUser(userId: string): Promise<number> {
    const rows = await listAllEntities(this.store, TABLES.merchants, { partitionKey: userId });
    return deleteRows(this.store, TABLES.merchants, rows);
  }
}

/**
 * Deletes the user's merchant when no receipt is from it. A scan of the same merchant may write its
 * receipt meanwhile: the receipts are checked again after the delete, and the merchant put back
 * when one appeared (the scan writes its receipt before its final merchant write, so either that
 * write or this check sees the other).
 */
export async function removeMerchantIfUnused(
  repos: { receipts: ReceiptRepository; merchants: MerchantRepository },
  userId: string,
  merchantId: string,
  exceptReceiptId?: string,
): Promise<void> {
  const { receipts, merchants } = repos;
  if (await receipts.merchantHasReceipts(userId, merchantId, exceptReceiptId)) return;
  const merchant = await merchants.getMerchant(userId, merchantId);
  if (!merchant) return;
  await merchants.deleteMerchant(userId, merchantId);
  if (await receipts.merchantHasReceipts(userId, merchantId, exceptReceiptId))
    await merchants.saveMerchant(merchant);
}
