import type { Logger } from '../ports';
import { invalidateReportTotals, recordReceiptWrites } from './totals-build';
import type { WrittenItems } from './totals-update';
import type { TableStore } from '../table-store';

/**
 * After writes of these receipts of the user (written, edited, moved or deleted): their report
 * totals are updated, in work proportional to those receipts (see totals-update.ts). The
 * writes themselves stand when this fails: the totals are then marked as not ready, so the reports
 * are served from the user's rows until the next write rebuilds the totals. `written`: the item keys
 * the caller has just written per receipt, when it knows them; the update then reads them by key.
 */
export async function afterReceiptWrites(
  deps: { store: TableStore; logger: Logger; now?: () => Date },
  userId: string,
  fileNames: string[],
  written?: WrittenItems,
): Promise<void> {
  if (fileNames.length === 0) return;
  const started = performance.now();
  try {
    const how = await recordReceiptWrites(
      deps.store,
      userId,
      fileNames,
      deps.now ? deps.now() : new Date(),
      written,
    );
    if (how !== 'updated') {
      deps.logger.info(`report totals ${how}`, {
        userId,
        receipts: fileNames.length,
        ms: Math.round(performance.now() - started),
      });
    }
  } catch (error) {
    deps.logger.warn('report totals not updated; they are rebuilt at the next write', {
      userId,
      error: String(error),
    });
    await invalidateReportTotals(deps.store, userId).catch((again: unknown) =>
      deps.logger.error('report totals could not be marked for a rebuild', { userId, error: String(again) }),
    );
  }
}
