import { useCallback } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UploadAnswer } from '@receipts/core/contract/requests';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { localDay } from '../../../lib/local-day';
import { handOver, keepPendingUpload, keepWhileSending, settle } from '../../../lib/pending-uploads';
import { queryKeys } from '../../../lib/query-keys';
import { useAppActions } from '../../../stores/app-state';

export interface UploadInput {
  userId: string;
  imgSrc: string;
  fileName: string;
  /**
   * The person's day when the receipt was taken or picked (`YYYY-MM-DD`): the date of a receipt that
   * prints none. Today's when left out.
   */
  day?: string;
}

/** An upload as the page asks for it: what is sent, and the name the person knows the file by. */
export interface UploadRequest extends UploadInput {
  /** The picked file's own name, shown while it waits on the device; absent for a photo taken in the app. */
  label?: string;
}

/** POST /api/upload: stores the image and queues it for analysis. */
export function uploadReceipt(input: UploadInput, signal?: AbortSignal): Promise<UploadAnswer | undefined> {
  return apiRequest('upload', { body: { ...input, day: input.day ?? localDay() }, signal });
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
 * How long a capture or a pick waits for the server's answer before it is handed to the on-device
 * queue: a connection that hangs (a shop's weak signal, a captive portal) must not keep the person
 * waiting, and the queue sends it without a time limit once the connection works.
 */
export const REACH_SERVER_MS = 8_000;

/**
 * Sends a receipt, keeping it on the device (IndexedDB) while it is sent, so that nothing is lost when
 * the tab closes or the connection drops mid-way. When the browser is offline, the server cannot be
 * reached, or it does not answer within `timeoutMs`, the kept copy is handed to PendingUploadSender,
 * which sends it when the connection returns. The server's refusals (a duplicate, a file too large)
 * are thrown as they are, for the person to read, and nothing stays on the device.
 */
export async function uploadOrKeep(
  request: UploadRequest,
  timeoutMs = REACH_SERVER_MS,
): Promise<UploadOutcome> {
  const { label, ...input } = request;
  const record = {
    id: input.fileName,
    userId: input.userId,
    dataUrl: input.imgSrc,
    raw: false,
    source: 'capture' as const,
    savedAt: Date.now(),
    ...(label ? { label } : {}),
  };
  // A browser without IndexedDB (some private windows) still uploads; it only cannot keep a copy.
  const kept = await keepWhileSending(record).then(
    () => true,
    () => false,
  );
  const forget = () => (kept ? settle(record.id).catch(() => undefined) : Promise.resolve());
  const keep = async (): Promise<UploadOutcome> => {
    if (kept) handOver(record.id);
    else await keepPendingUpload(record);
    return { kind: 'kept' };
  };
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return keep();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let answer: UploadAnswer | undefined;
  try {
    answer = await uploadReceipt(input, controller.signal);
  } catch (error) {
    if (controller.signal.aborted || isConnectionFailure(error)) return keep();
    await forget();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  await forget();
  return { kind: 'uploaded', answer };
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
    // Never paused for want of a connection: uploadOrKeep keeps the receipt on the device instead.
    networkMode: 'always',
    mutationFn: (request: UploadRequest) => uploadOrKeep(request),
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
