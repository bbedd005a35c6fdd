import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GetImageAnswer } from '@receipts/core/api';
import { apiRequest } from './api-client';
import { queryKeys } from './query-keys';

/** GET /api/getImage: the stored image as a data URL. */
export function getImage(userId: string, blobName: string): Promise<GetImageAnswer> {
  return apiRequest('getImage', { query: { userId, blobName } });
}

export const imageQueryOptions = (userId: string, blobName: string) =>
  queryOptions({
    queryKey: queryKeys.image(userId, blobName),
    queryFn: () => getImage(userId, blobName),
    staleTime: Infinity,
  });

/**
 * The source to show for a queue entry's image: a data URL as it is, or the stored image behind a
 * `/api/getImage?userId=&blobName=` link (which needs the bearer token, so an <img> cannot load it).
 */
export function useQueueThumbnail(image: string): { src: string | undefined; failed: boolean } {
  let blobName = '';
  let owner = '';
  if (image && !image.startsWith('data:')) {
    const url = new URL(image, window.location.origin);
    if (url.pathname === '/api/getImage') {
      blobName = url.searchParams.get('blobName') ?? '';
      owner = url.searchParams.get('userId') ?? '';
    }
  }
  const stored = useQuery({ ...imageQueryOptions(owner, blobName), enabled: Boolean(owner && blobName) });
  if (image.startsWith('data:')) return { src: image, failed: false };
  return { src: stored.data, failed: stored.isError };
}

export function useReceiptImage(userId: string | null, blobName: string, enabled: boolean) {
  return useQuery({
    ...imageQueryOptions(userId ?? '', blobName),
    enabled: enabled && Boolean(userId && blobName),
  });
}
