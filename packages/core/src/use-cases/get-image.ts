import { ACCEPTED_IMAGE_TYPES, type GetImageAnswer } from '../api';
import { NotFoundError } from '../errors';
import type { Identity } from '../ports';
import { imageKey } from '../repository/keys';
import { assertOwnUserId, type AppDeps } from './context';
import { toDataUrl } from './image-data-url';

/**
 * One of the user's stored receipt images as a data URL (spec §7 GET /api/getImage). The key is
 * built from the caller's own uid, so no name reaches another user's images.
 */
export async function getImage(
  deps: Pick<AppDeps, 'blobs'>,
  identity: Identity,
  input: { userId: string; blobName: string },
): Promise<GetImageAnswer> {
  assertOwnUserId(identity, input.userId);
  const blob = await deps.blobs.get(imageKey(identity.uid, input.blobName));
  // Only images are served here; the analysis JSON beside them is not an image.
  if (!blob || !(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(blob.contentType)) {
    throw new NotFoundError(`There is no receipt image named "${input.blobName}".`, {
      code: 'ImageNotFound',
    });
  }
  return toDataUrl(blob.contentType, blob.bytes);
}
