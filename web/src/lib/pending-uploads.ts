import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/**
 * Receipts kept in the browser (IndexedDB) until they can be uploaded: photos taken or files picked
 * with no connection, and files shared to the installed app (the service worker stores those). They
 * survive closing the tab; an entry is deleted once the server has it, or when the person removes it.
 *
 * This module runs in pages and in the service worker, so it uses nothing of the DOM.
 */
export interface PendingUpload {
  /** The key; also the file name the upload is sent under, e.g. '1718000000000-receipt.jpg'. */
  id: string;
  /** Who took it; null for a file shared to the app, which goes to whoever is signed in. */
  userId: string | null;
  /** The file as a data URL (image or PDF). */
  dataUrl: string;
  /** Whether the file still needs preparing (made smaller, or re-encoded) before it is sent. */
  raw: boolean;
  /** Where it came from: taken or picked in the app, or shared to it from another app. */
  source: 'capture' | 'share';
  /** When it was kept, in ms since the epoch. */
  savedAt: number;
  /** The name the person knows it by (the picked file's own name); absent for a photo taken in the app. */
  label?: string;
  /** The server's words when it refused the upload (a duplicate, a file it cannot take); kept for the person to read. */
  refusal?: string;
}

interface PendingDb extends DBSchema {
  uploads: { key: string; value: PendingUpload; indexes: { savedAt: number } };
}

export const PENDING_DB = 'receipt-tracker-offline';
const VERSION = 1;

let database: Promise<IDBPDatabase<PendingDb>> | null = null;

function db(): Promise<IDBPDatabase<PendingDb>> {
  database ??= openDB<PendingDb>(PENDING_DB, VERSION, {
    upgrade(upgrading) {
      const store = upgrading.createObjectStore('uploads', { keyPath: 'id' });
      store.createIndex('savedAt', 'savedAt');
    },
    // Another tab (or the service worker) upgrades the database: let it, and reopen next time.
    blocking() {
      void database?.then((open) => open.close());
      database = null;
    },
  });
  return database;
}

const listeners = new Set<() => void>();
/** Tells other tabs and the service worker's pages that the list changed. */
const CHANNEL = 'receipt-tracker-pending-uploads';
let channel: BroadcastChannel | null = null;

function broadcast(): BroadcastChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  channel ??= new BroadcastChannel(CHANNEL);
  return channel;
}

function changed(): void {
  for (const listener of listeners) listener();
  broadcast()?.postMessage('changed');
}

/** Calls `listener` whenever the kept uploads change, in this page or another. Returns the unsubscribe. */
export function onPendingUploadsChange(listener: () => void): () => void {
  listeners.add(listener);
  const other = broadcast();
  const fromOther = () => listener();
  other?.addEventListener('message', fromOther);
  return () => {
    listeners.delete(listener);
    other?.removeEventListener('message', fromOther);
  };
}

/** Uploads this page is sending itself right now: the sender leaves them alone until they are handed over. */
const inFlight = new Set<string>();

/** Whether this page is sending the upload `id` itself (kept only in case the sending fails). */
export function isInFlight(id: string): boolean {
  return inFlight.has(id);
}

/** Keeps an upload until it can be sent. */
export async function keepPendingUpload(upload: PendingUpload): Promise<void> {
  await (await db()).put('uploads', upload);
  changed();
}

/**
 * Keeps an upload on the device while this page sends it, so that closing the tab or losing the
 * connection mid-way loses nothing. Nobody is told: the sender and the lists see it only once it is
 * handed over with `handOver`, or never when `settle` removes it after the server took it.
 */
export async function keepWhileSending(upload: PendingUpload): Promise<void> {
  inFlight.add(upload.id);
  try {
    await (await db()).put('uploads', upload);
  } catch (error) {
    inFlight.delete(upload.id);
    throw error;
  }
}

/** The upload kept by `keepWhileSending` could not be sent now: it waits for the sender, and the lists show it. */
export function handOver(id: string): void {
  inFlight.delete(id);
  changed();
}

/** The upload kept by `keepWhileSending` reached the server (or was refused): it is forgotten quietly. */
export async function settle(id: string): Promise<void> {
  inFlight.delete(id);
  await (await db()).delete('uploads', id);
}

/**
 * The uploads waiting for this user, oldest first: their own and the ones shared to the app.
 *
 * @param userId - the signed-in user; null lists only the shared ones
 */
export async function listPendingUploads(userId: string | null): Promise<PendingUpload[]> {
  const all = await (await db()).getAllFromIndex('uploads', 'savedAt');
  return all.filter(
    (upload) => (upload.userId === null || upload.userId === userId) && !inFlight.has(upload.id),
  );
}

/** Forgets an upload: the server has it, or the person removed it. */
export async function removePendingUpload(id: string): Promise<void> {
  await (await db()).delete('uploads', id);
  changed();
}

/** Records the server's refusal on an upload, so the person sees why it was not sent. */
export async function refusePendingUpload(id: string, refusal: string): Promise<void> {
  const store = await db();
  const upload = await store.get('uploads', id);
  if (!upload) return;
  await store.put('uploads', { ...upload, refusal });
  changed();
}

/** Closes the database (tests start each case from an empty one). */
export async function closePendingUploads(): Promise<void> {
  const open = database;
  database = null;
  inFlight.clear();
  if (open) (await open).close();
}
