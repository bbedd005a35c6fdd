/* global self */
/* Service worker for push messages (Firebase Cloud Messaging web push).
 * It needs no SDK: FCM delivers a standard push event whose data is JSON with `notification` and `data`.
 * When the app is open and visible the message goes to the page (which marks a new report); otherwise
 * it is shown as a notification that opens the reports. */

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

function readPayload(event) {
  if (!event.data) return {};
  try {
    return event.data.json();
  } catch {
    return { notification: { body: event.data.text() } };
  }
}

self.addEventListener('push', (event) => {
  const payload = readPayload(event);
  const notification = payload.notification || {};
  const data = payload.data || {};
  const title = notification.title || data.title || 'Receipt ready';
  const body = notification.body || data.body || 'A receipt has been analysed.';
  const link = (payload.fcmOptions && payload.fcmOptions.link) || data.link || '/Reports';

  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const visible = windows.filter((w) => w.visibilityState === 'visible');
      for (const w of windows) w.postMessage({ type: 'receipt-push', title, body });
      if (visible.length > 0) return undefined;
      return self.registration.showNotification(title, {
        body,
        icon: '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
        data: { link },
      });
    }),
  );
});

/* The link of a push, only when it stays on this site; anything else opens the reports. A push
 * names its own link, and a notification must never send the user to another site. */
function sameOriginLink(link) {
  try {
    const url = new URL(link || '/Reports', self.location.origin);
    return url.origin === self.location.origin ? url.pathname + url.search + url.hash : '/Reports';
  } catch {
    return '/Reports';
  }
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const link = sameOriginLink(event.notification.data && event.notification.data.link);
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const w of windows) {
        if ('focus' in w) {
          w.navigate(link);
          return w.focus();
        }
      }
      return self.clients.openWindow(link);
    }),
  );
});
