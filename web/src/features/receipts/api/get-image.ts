import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GetImageAnswer } from '@receipts/core/api';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/getImage: the stored image as a data URL. */
export function getImage(userId: string, blobName: string): Promise<GetImageAnswer> {
  return apiRequest<GetImageAnswer>('getImage', { query: { userId, blobName } });
}

export const imageQueryOptions = (userId: string, blobName: string) =>
  queryOptions({
    queryKey: queryKeys.image(userId, blobName),
    queryFn: () => getImage(userId, blobName),
    staleTime: Infinity,
  });

export function useReceiptImage(userId: string | null, blobName: string, enabled: boolean) {
  return useQuery({
    ...imageQueryOptions(userId ?? '', blobName),
    enabled: enabled && Boolean(userId && blobName),
  });
}
