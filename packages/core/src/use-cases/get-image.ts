import { ACCEPTED_IMAGE_TYPES } from '../contract/routes';
import type { GetImageAnswer } from '../contract/requests';
import { NotFoundError } from '../errors';
import type { Identity, Logger, PdfPreviewer } from '../ports';
import { imageKey } from '../repository/keys';
import { assertOwnUserId, type AppDeps } from './context';
import { toDataUrl } from './image-data-url';

/**
 * One of the user's stored receipt images as a data URL (spec §7 GET /api/getImage). The key is
 * built from the caller's own uid, so no name reaches another user's images. With `preview`, a PDF
 * is answered with a PNG of its first page when a previewer is configured (the local server draws
 * it with pdf.js; the cloud has none and answers the PDF, which the web shows as a PDF icon).
 */
export async function getImage(
  deps: Pick<AppDeps, 'blobs'> & { previewer?: PdfPreviewer; logger?: Logger },
  identity: Identity,
  input: { userId: string; blobName: string; preview?: boolean },
): Promise<GetImageAnswer> {
  assertOwnUserId(identity, input.userId);
  const blob = await deps.blobs.get(imageKey(identity.uid, input.blobName));
  // Only images are served here; the analysis JSON beside them is not an image.
  if (!blob || !(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(blob.contentType)) {
    throw new NotFoundError(`There is no receipt image named "${input.blobName}".`, {
      code: 'ImageNotFound',
    });
  }
  if (input.preview && blob.contentType === 'application/pdf' && deps.previewer) {
    try {
      return toDataUrl('image/png', await deps.previewer.firstPage(blob.bytes));
    } catch (error) {
      // A PDF that cannot be drawn is still the user's file: it is answered as it is.
      deps.logger?.warn('PDF preview not drawn', { blobName: input.blobName, error: String(error) });
    }
  }
  return toDataUrl(blob.contentType, blob.bytes);
}
