import { apiDownload } from '../../../lib/api-client';

/**
 * Downloads all of the user's data as a ZIP (GET /api/downloadMyData). The call needs the ID token,
 * which a plain link cannot send, so the file is fetched and handed to the browser's download as a
 * blob.
 * @param images - whether the stored images and analyses go in too (they make it much larger)
 */
export async function downloadMyData(userId: string, images: boolean): Promise<void> {
  const { blob, fileName } = await apiDownload('downloadMyData', { userId, images: String(images) });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
