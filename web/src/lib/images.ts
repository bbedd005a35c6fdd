import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GetImageAnswer } from '@receipts/core/contract/requests';
import { ApiError, apiRequest } from './api-client';
import { shouldRetry } from './query-client';
import { queryKeys } from './query-keys';

/**
 * GET /api/getImage: the stored image as a data URL; with `preview`, a picture to show (a PDF's
 * first page as PNG where the server draws one, else the PDF itself).
 */
export function getImage(userId: string, blobName: string, preview = false): Promise<GetImageAnswer> {
  return apiRequest('getImage', {
    query: { userId, blobName, ...(preview ? { preview: '1' } : {}) },
  });
}

export const imageQueryOptions = (userId: string, blobName: string, preview = false) =>
  queryOptions({
    queryKey: queryKeys.image(userId, blobName, preview),
    queryFn: () => getImage(userId, blobName, preview),
    staleTime: Infinity,
  });

/** How long a queue thumbnail waits before asking again for an image not stored yet. */
export const THUMBNAIL_RETRY_MS = 1_000;

/**
 * Whether to ask again for a queue entry's image: an upload writes its queue entry before its image
 * (so that no image is ever stored without its scan), and a list read in between names an image the
 * server answers 404 for, for a moment. Asked twice more, a second apart; other failures as any query.
 */
export function imageNotYetStored(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status === 404) return failureCount < 2;
  return shouldRetry(failureCount, error);
}

/**
 * The source to show for a queue entry's image: a data URL as it is, or the stored image behind a
 * `/api/getImage?userId=&blobName=` link (which needs the bearer token, so an <img> cannot load it).
 */
export function useQueueThumbnail(image: string): {
  src: string | undefined;
  failed: boolean;
  /** The stored file behind the thumbnail, when it is one (to open a PDF itself). */
  stored?: { userId: string; blobName: string };
} {
  let blobName = '';
  let owner = '';
  if (image && !image.startsWith('data:')) {
    const url = new URL(image, window.location.origin);
    if (url.pathname === '/api/getImage') {
      blobName = url.searchParams.get('blobName') ?? '';
      owner = url.searchParams.get('userId') ?? '';
    }
  }
  const stored = useQuery({
    ...imageQueryOptions(owner, blobName, true),
    enabled: Boolean(owner && blobName),
    retry: imageNotYetStored,
    retryDelay: THUMBNAIL_RETRY_MS,
  });
  if (image.startsWith('data:')) return { src: image, failed: false };
  return { src: stored.data, failed: stored.isError, stored: { userId: owner, blobName } };
}

/** A receipt's image to show: a PDF's first page as a picture where the server draws one. */
export function useReceiptImage(userId: string | null, blobName: string, enabled: boolean) {
  return useQuery({
    ...imageQueryOptions(userId ?? '', blobName, true),
    enabled: enabled && Boolean(userId && blobName),
  });
}
