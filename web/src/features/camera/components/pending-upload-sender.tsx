import { useEffect } from 'react';
import { ApiError, errorMessage } from '../../../lib/api-client';
import {
  listPendingUploads,
  onPendingUploadsChange,
  refusePendingUpload,
  removePendingUpload,
  type PendingUpload,
} from '../../../lib/pending-uploads';
import { useAppActions, useAppState } from '../../../stores/app-state';
import { isConnectionFailure, uploadReceipt, useRecordUpload, type UploadInput } from '../api/upload-receipt';
import { localDay } from '../../../lib/local-day';
import { ImagePreparationError, dataUrlToFile, prepareFile } from '../utils/image';

/** While receipts wait and the browser says it is online, how often to try again (the server may be back). */
export const PENDING_RETRY_MS = 30_000;

/**
 * How long one kept receipt may take to send before the round stops and waits for the next: generous
 * for a large photo on a slow line, but a request that hangs never blocks the queue for good.
 */
export const SEND_TIMEOUT_MS = 120_000;

/** Statuses that say "not now" rather than "never": the upload is tried again later. */
function isTemporary(error: ApiError): boolean {
  return error.status === 401 || error.status === 408 || error.status === 429 || error.status >= 500;
}

/** Refusals of an upload name the server already holds (queued, being analysed or analysed). */
const HELD_CODES = new Set(['AlreadyQueued', 'BeingAnalysed', 'AlreadyAnalysed']);

/**
 * Whether a refusal says the server already holds this very upload: a try that timed out after the
 * server had it, or a tab closed mid-way. Upload names are unique to one capture, so a refusal of the
 * name, or a duplicate of the image under the same name, means it is in.
 */
function isSameUpload(error: unknown, fileName: string): boolean {
  if (!(error instanceof ApiError)) return false;
  if (HELD_CODES.has(error.code)) return true;
  return error.code === 'DuplicateImage' && (error.receiptId?.endsWith(fileName) ?? false);
}

export interface SendResult {
  sent: { upload: PendingUpload; input: UploadInput; answer: Awaited<ReturnType<typeof uploadReceipt>> }[];
  refused: number;
  /** Whether the sending stopped because the server could not be reached (or not now). */
  stopped: boolean;
}

/**
 * Sends the receipts kept on this device, oldest first: each is deleted from IndexedDB once the server
 * has it. A refusal (409 duplicate, another 4xx, a file that cannot be prepared) is recorded on the
 * entry with the server's words for the person to read and remove; no connection, a lost sign-in or a
 * server fault stops the round, and everything left waits for the next one.
 */
export async function sendPendingUploads(userId: string): Promise<SendResult> {
  const result: SendResult = { sent: [], refused: 0, stopped: false };
  for (const upload of await listPendingUploads(userId)) {
    if (upload.refusal) continue;
    try {
      const input: UploadInput = upload.raw
        ? { userId, ...(await prepareFile(dataUrlToFile(upload.dataUrl, upload.id))) }
        : { userId, imgSrc: upload.dataUrl, fileName: upload.id };
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), SEND_TIMEOUT_MS);
      // Dated the day it was kept on the device, not the day the connection came back.
      const answer = await uploadReceipt(
        { ...input, day: localDay(new Date(upload.savedAt)) },
        controller.signal,
      )
        .catch((error: unknown) => {
          // Sent before (a tab closed, or a try that timed out after the server had it): it is in.
          if (isSameUpload(error, upload.id)) return undefined;
          throw error;
        })
        .finally(() => clearTimeout(timer));
      await removePendingUpload(upload.id);
      result.sent.push({ upload, input, answer });
    } catch (error) {
      const aborted = error instanceof DOMException && error.name === 'AbortError';
      if (aborted || isConnectionFailure(error) || (error instanceof ApiError && isTemporary(error))) {
        result.stopped = true;
        break;
      }
      if (error instanceof ApiError || error instanceof ImagePreparationError) {
        await refusePendingUpload(upload.id, errorMessage(error));
        result.refused += 1;
        continue;
      }
      throw error;
    }
  }
  return result;
}

let running: Promise<void> | null = null;
let again = false;

/**
 * Sends the receipts kept on this device (taken offline, or shared to the app) when the app starts
 * signed in, when the connection returns, when another is kept, and every PENDING_RETRY_MS while some
 * wait. One round at a time; a request during a round runs one more after it.
 */
export function PendingUploadSender() {
  const { signedIn, userId } = useAppState();
  const actions = useAppActions();
  const recordUpload = useRecordUpload();

  useEffect(() => {
    if (!signedIn || !userId || typeof indexedDB === 'undefined') return;
    let active = true;
    const round = async () => {
      const result = await sendPendingUploads(userId);
      if (!active) return;
      for (const { answer, input } of result.sent) recordUpload(answer, input);
      if (result.sent.length > 0) {
        const count = result.sent.length;
        actions.showMessage({
          intent: 'success',
          title: `${count} ${count === 1 ? 'receipt' : 'receipts'} kept on this device uploaded — analysing`,
        });
      }
    };
    const send = () => {
      if (navigator.onLine === false) return;
      if (running) {
        again = true;
        return;
      }
      running = round()
        .catch((error: unknown) => console.warn('Could not send the receipts kept on this device', error))
        .finally(() => {
          running = null;
          if (again && active) {
            again = false;
            send();
          }
        });
    };
    send();
    window.addEventListener('online', send);
    const stop = onPendingUploadsChange(send);
    const timer = window.setInterval(send, PENDING_RETRY_MS);
    return () => {
      active = false;
      window.removeEventListener('online', send);
      stop();
      window.clearInterval(timer);
    };
  }, [signedIn, userId, actions, recordUpload]);

  return null;
}
