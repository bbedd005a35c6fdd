import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useConfig } from '../../../config/config-context';
import { firebaseApp } from '../../../lib/firebase';
import { errorMessage } from '../../../lib/api-client';
import { invalidateUserData } from '../../../lib/query-keys';
import { useAppActions, useAppState } from '../../../stores/app-state';
import { SERVICE_WORKER_URL } from '../../../lib/service-worker';
import { registerFcmToken } from '../api/register-fcm-token';

/**
 * The service worker that shows push messages: the app's own worker, which imports the push handlers
 * of public/firebase-messaging-sw.js (one worker per site; a second one would replace the first).
 */
export const MESSAGING_SERVICE_WORKER = SERVICE_WORKER_URL;

/** What the service worker posts to open pages when a push arrives. */
interface PushNotice {
  type: 'receipt-push';
  title?: string;
  body?: string;
}

function isPushNotice(value: unknown): value is PushNotice {
  return typeof value === 'object' && value !== null && (value as PushNotice).type === 'receipt-push';
}

/**
 * Push notifications (spec §4): when signed in with no stored token, asks for permission, gets a token
 * and registers it. Runs only when the config names a sender and a VAPID key and the browser supports
 * it, so sign-in never depends on it (the local stack has no FCM).
 */
export function PushRegistration() {
  const config = useConfig();
  const { signedIn, userId, fcmToken } = useAppState();
  const actions = useAppActions();
  const queryClient = useQueryClient();
  const attempted = useRef<string | null>(null);
  const enabled = Boolean(config.firebase.messagingSenderId && config.vapidKey);

  useEffect(() => {
    if (!enabled || !signedIn || !userId || fcmToken || attempted.current === userId) return;
    if (!('Notification' in window) || !('serviceWorker' in navigator)) return;
    attempted.current = userId;
    let active = true;
    (async () => {
      const messagingSdk = await import('firebase/messaging');
      if (!(await messagingSdk.isSupported())) return;
      const permission =
        Notification.permission === 'default'
          ? await Notification.requestPermission()
          : Notification.permission;
      if (permission !== 'granted' || !active) return;
      const registration = await navigator.serviceWorker.register(MESSAGING_SERVICE_WORKER);
      const messaging = messagingSdk.getMessaging(await firebaseApp());
      const token = await messagingSdk.getToken(messaging, {
        vapidKey: config.vapidKey ?? undefined,
        serviceWorkerRegistration: registration,
      });
      if (!token || !active) return;
      await registerFcmToken({ userId, fcmToken: token });
      actions.setFcmToken(token);
    })().catch((error: unknown) => {
      console.warn('Push notifications could not be set up', error);
      if (active) {
        actions.showMessage({
          intent: 'warning',
          title: 'Notifications are off.',
          detail: errorMessage(error),
        });
      }
    });
    return () => {
      active = false;
    };
  }, [enabled, signedIn, userId, fcmToken, config.vapidKey, actions]);

  // A push while the app is open: a new report is ready.
  useEffect(() => {
    if (!enabled || !signedIn || !userId || !('serviceWorker' in navigator)) return;
    const onMessage = (event: MessageEvent) => {
      if (!isPushNotice(event.data)) return;
      actions.setNewReport(true);
      void invalidateUserData(queryClient, userId);
      actions.showMessage({
        intent: 'info',
        title: event.data.title || 'A receipt is ready.',
        detail: event.data.body,
      });
    };
    const workers = navigator.serviceWorker;
    workers.addEventListener('message', onMessage);
    return () => workers.removeEventListener('message', onMessage);
  }, [enabled, signedIn, userId, actions, queryClient]);

  return null;
}
