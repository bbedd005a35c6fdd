import type { ReceiptRepository } from '../repository/receipt-repository';

/**
 * Deletes the user's merchant when no receipt is from it. A scan of the same merchant may write its
 * receipt meanwhile: the receipts are checked again after the delete, and the merchant put back
 * when one appeared (the scan writes its receipt before its final merchant write, so either that
 * write or this check sees the other).
 */
export async function removeMerchantIfUnused(
  repo: ReceiptRepository,
  userId: string,
  merchantId: string,
  exceptReceiptId?: string,
): Promise<void> {
  if (await repo.merchantHasReceipts(userId, merchantId, exceptReceiptId)) return;
  const merchant = await repo.getMerchant(userId, merchantId);
  if (!merchant) return;
  await repo.deleteMerchant(userId, merchantId);
  if (await repo.merchantHasReceipts(userId, merchantId, exceptReceiptId)) await repo.saveMerchant(merchant);
}
