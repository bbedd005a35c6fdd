import type { ExportTable } from '@receipts/core/contract/reports';
import { apiDownload } from '../../../lib/api-client';
import type { ReportParams } from '../../../lib/reports';

/**
 * Downloads the receipts or items under the filter as a CSV file (GET /api/exportCsv). The call needs
 * the ID token, which a plain link cannot send, so the file is fetched and handed to the browser's
 * download as a blob.
 */
export async function downloadCsv(userId: string, table: ExportTable, filters: ReportParams): Promise<void> {
  const { blob, fileName } = await apiDownload('exportCsv', { ...filters, userId, table });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
