import { useCallback } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UploadAnswer } from '@receipts/core/api';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { keepPendingUpload } from '../../../lib/pending-uploads';
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

/** What became of a receipt sent from this device. */
export type UploadOutcome =
  | { kind: 'uploaded'; answer: UploadAnswer | undefined }
  /** There was no connection: it is kept on the device and sent when the connection returns. */
  | { kind: 'kept' };

/** Whether a failed call never reached the server (no connection), as opposed to being refused by it. */
export function isConnectionFailure(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'NetworkError';
}

/**
 * Sends a receipt, or keeps it on the device (IndexedDB) when the browser is offline or the server
 * cannot be reached, to be sent by PendingUploadSender when the connection returns. The server's
 * refusals (a duplicate, a file too large) are thrown as they are, for the person to read.
 */
export async function uploadOrKeep(input: UploadInput): Promise<UploadOutcome> {
  const keep = async (): Promise<UploadOutcome> => {
    await keepPendingUpload({
      id: input.fileName,
      userId: input.userId,
      dataUrl: input.imgSrc,
      raw: false,
      source: 'capture',
      savedAt: Date.now(),
    });
    return { kind: 'kept' };
  };
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return keep();
  try {
    return { kind: 'uploaded', answer: await uploadReceipt(input) };
  } catch (error) {
    if (isConnectionFailure(error)) return keep();
    throw error;
  }
}

/** What the person sees (on Home, where an upload lands) once the receipt is in. */
export const UPLOADED_MESSAGE = 'Receipt uploaded — analysing';
/** What the person sees when a receipt is kept for later. */
export const KEPT_MESSAGE = 'No connection: the receipt is kept on this device';
export const KEPT_DETAIL =
  'It uploads by itself when the connection returns, even after the app is closed and opened again.';

/** Where a sent receipt is followed: Home once uploaded, Images in progress while it waits. */
export function pageAfter(outcome: UploadOutcome): string {
  return outcome.kind === 'kept' ? '/ReceiptImages' : '/';
}

/** After an upload: the scan joins the pending list and the queue is read again (spec §2 Camera). */
export function useRecordUpload() {
  const actions = useAppActions();
  const queryClient = useQueryClient();
  return useCallback(
    (answer: UploadAnswer | undefined, input: UploadInput) => {
      actions.addScan({
        fileName: answer?.fileName ?? input.fileName,
        image: input.imgSrc,
        status: answer?.status ?? 'false',
      });
      void queryClient.invalidateQueries({ queryKey: queryKeys.queue(input.userId) });
    },
    [actions, queryClient],
  );
}

/**
 * Uploads (or keeps for later, when offline), then adds the scan to the pending list, says so in the
 * message bar and refreshes the queue (spec §2 Camera).
 */
export function useUploadReceipt() {
  const actions = useAppActions();
  const recordUpload = useRecordUpload();
  return useMutation({
    mutationFn: uploadOrKeep,
    onSuccess: (outcome, input) => {
      if (outcome.kind === 'kept') {
        actions.showMessage({ intent: 'warning', title: KEPT_MESSAGE, detail: KEPT_DETAIL });
        return;
      }
      recordUpload(outcome.answer, input);
      actions.showMessage({ intent: 'success', title: UPLOADED_MESSAGE });
    },
  });
}
