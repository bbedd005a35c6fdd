/// <reference types="vite/client" />
/**
 * The app's service worker (src/sw.ts, built into dist/sw.js): offline start, the share target and
 * push. It exists only in the production build; the Vite dev server has the push worker alone.
 */
export const SERVICE_WORKER_URL = import.meta.env.DEV ? '/firebase-messaging-sw.js' : '/sw.js';

/**
 * Registers the service worker (the browser checks for a new one on every start). Push registration
 * registers the same URL, so there is one worker for the whole site.
 */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration | undefined> {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return Promise.resolve(undefined);
  return navigator.serviceWorker.register(SERVICE_WORKER_URL).catch((error: unknown) => {
    // Without it the app still works online; only offline start and sharing to it are lost.
    console.warn('The service worker could not be registered', error);
    return undefined;
  });
}
