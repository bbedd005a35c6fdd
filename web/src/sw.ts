/**
 * The app's one service worker (built by vite-plugin-pwa's injectManifest into dist/sw.js):
 * - precaches the built app (Workbox), so the installed app opens with no connection;
 * - keeps the last /config.json (network first) so the app can start offline;
 * - receives files shared to the installed app (manifest share_target) and keeps them for upload;
 * - shows push notifications, with the handlers of public/firebase-messaging-sw.js.
 * Nothing under /api is ever routed here: API calls always go to the network, never to a cache.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { warmStrategyCache } from 'workbox-recipes';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { keepPendingUpload } from './lib/pending-uploads';
import { SHARE_TARGET_PATH, receiveShare } from './lib/share-target';

// The DOM library is the project's; of the worker scope only these are used here.
declare const self: {
  location: Location;
  importScripts(...urls: string[]): void;
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

// Push: the same handlers as before this worker existed (install/activate take over at once).
self.importScripts('/firebase-messaging-sw.js');

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Client-side routes get the precached app shell; /api and the share POST never do.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api\//, new RegExp(`^${SHARE_TARGET_PATH}`)],
  }),
);

// The runtime config: the server's when reachable, else the last one seen (warmed at install, so
// the first offline start works even if the page never fetched it through this worker).
const config = new NetworkFirst({ cacheName: 'runtime-config', networkTimeoutSeconds: 5 });
registerRoute(({ url }) => url.origin === self.location.origin && url.pathname === '/config.json', config);
warmStrategyCache({ urls: ['/config.json'], strategy: config });

registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === SHARE_TARGET_PATH,
  ({ request }) => receiveShare(request, keepPendingUpload),
  'POST',
);
