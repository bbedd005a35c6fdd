import type { DownloadMyDataLink } from '@receipts/core/contract/my-data';
import { apiDownload } from '../../../lib/api-client';

/** Whether an answer is the cloud's `{ url, expiresAt }` link rather than the ZIP itself. */
function isLink(value: unknown): value is DownloadMyDataLink {
  return typeof value === 'object' && value !== null && typeof (value as { url?: unknown }).url === 'string';
}

/** Hands `href` to the browser's download, as a click on a link would. */
function startDownload(href: string, fileName?: string): void {
  const link = document.createElement('a');
  link.href = href;
  if (fileName) link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * Downloads all of the user's data as a ZIP (GET /api/downloadMyData). The call needs the ID token,
 * which a plain link cannot send, so the file is fetched and handed to the browser's download as a
 * blob. In the cloud the answer is instead a short-lived link to the ZIP in storage (any size), which
 * is opened as a download (the link names the file as an attachment).
 * @param images - whether the stored images and analyses go in too (they make it much larger)
 */
export async function downloadMyData(userId: string, images: boolean): Promise<void> {
  const { blob, fileName } = await apiDownload('downloadMyData', { userId, images: String(images) });
  if (blob.type.startsWith('application/json')) {
    const answer: unknown = JSON.parse(await blob.text());
    if (isLink(answer)) {
      startDownload(answer.url);
      return;
    }
  }
  const url = URL.createObjectURL(blob);
  startDownload(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
