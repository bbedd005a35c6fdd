import type { PendingUpload } from './pending-uploads';

/**
 * Sharing to the installed app ("Share → Receipt Tracker" from a gallery or a PDF viewer): the
 * manifest's share_target posts the files here as multipart form data, the service worker keeps them
 * with the uploads waiting in IndexedDB and sends the browser on to the app, which uploads them like
 * a photo taken offline. This module runs in the service worker, so it uses nothing of the DOM.
 */

/** Where the manifest's share_target posts (public/manifest.webmanifest must say the same). */
export const SHARE_TARGET_PATH = '/share-target';
/** The form field the manifest names for the shared files. */
export const SHARE_FILES_FIELD = 'receipts';
/** Where the app opens after a share: Images in progress, which lists them until they are sent. */
export const SHARE_LANDING = '/ReceiptImages';

/** Whether a shared file is one the app can take: a picture or a PDF. */
export function isShareable(type: string): boolean {
  return type.startsWith('image/') || type === 'application/pdf';
}

/** A file's bytes as a data URL, without FileReader (not every worker has one). */
export async function blobToDataUrl(blob: Blob, type = blob.type): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  // In slices: one String.fromCharCode call per byte array of megabytes overflows the stack.
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return `data:${type || 'application/octet-stream'};base64,${btoa(binary)}`;
}

export interface ShareOutcome {
  /** How many of the shared files were kept. */
  kept: number;
  /** How many were not pictures or PDFs. */
  skipped: number;
}

/**
 * Reads a share_target POST and keeps every picture and PDF in it for upload.
 *
 * @param request - the POST the browser made for the share
 * @param keep - stores one upload (keepPendingUpload in the service worker)
 * @param now - the clock; each file gets its own time, so their names differ
 * @returns the redirect (303, so the app is fetched with GET) to the page that lists them
 */
export async function receiveShare(
  request: Request,
  keep: (upload: PendingUpload) => Promise<void>,
  now: () => number = Date.now,
): Promise<Response> {
  const outcome: ShareOutcome = { kept: 0, skipped: 0 };
  let form: FormData | null = null;
  try {
    form = await request.formData();
  } catch {
    form = null;
  }
  let last = 0;
  for (const value of form?.getAll(SHARE_FILES_FIELD) ?? []) {
    if (typeof value === 'string' || !isShareable(value.type)) {
      outcome.skipped += 1;
      continue;
    }
    last = Math.max(now(), last + 1);
    await keep({
      id: `${last}-shared`,
      userId: null,
      dataUrl: await blobToDataUrl(value),
      raw: true,
      source: 'share',
      savedAt: last,
    });
    outcome.kept += 1;
  }
  const target = new URL(SHARE_LANDING, request.url);
  target.searchParams.set('shared', String(outcome.kept));
  if (outcome.skipped > 0) target.searchParams.set('skipped', String(outcome.skipped));
  return Response.redirect(target.href, 303);
}
