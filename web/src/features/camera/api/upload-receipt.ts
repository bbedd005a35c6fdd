import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UploadAnswer } from '@receipts/core/api';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useAppActions } from '../../../stores/app-state';

export interface UploadInput {
  userId: string;
  imgSrc: string;
  fileName: string;
}

/** POST /api/upload: stores the image and queues it for analysis. */
export function uploadReceipt(input: UploadInput): Promise<UploadAnswer | undefined> {
  return apiRequest('upload', { body: input });
}

/** What the person sees (on Home, where an upload lands) once the receipt is in. */
export const UPLOADED_MESSAGE = 'Receipt uploaded — analysing';

/**
 * Uploads, then adds the scan to the pending list, says so in the message bar and refreshes the queue
 * (spec §2 Camera).
 */
export function useUploadReceipt() {
  const actions = useAppActions();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadReceipt,
    onSuccess: (answer, input) => {
      actions.addScan({
        fileName: answer?.fileName ?? input.fileName,
        image: input.imgSrc,
        status: answer?.status ?? 'false',
      });
      actions.showMessage({ intent: 'success', title: UPLOADED_MESSAGE });
      void queryClient.invalidateQueries({ queryKey: queryKeys.queue(input.userId) });
    },
  });
}
