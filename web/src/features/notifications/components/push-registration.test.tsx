import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { makeEmptyDashboard } from '../../../testing/data';
import { fakeApi } from '../../../testing/fake-api';
import { renderApp, signedInState, testConfig } from '../../../testing/render';

const messaging = vi.hoisted(() => ({
  isSupported: vi.fn(async () => true),
  getMessaging: vi.fn(() => ({})),
  getToken: vi.fn(async () => 'push-token-1'),
}));
vi.mock('firebase/messaging', () => messaging);

const pushConfig = {
  ...testConfig,
  firebase: { ...testConfig.firebase, messagingSenderId: '123' },
  vapidKey: 'vapid',
};
const register = vi.fn(async () => ({ scope: '/' }));
const listeners = new Set<(event: MessageEvent) => void>();

describe('push notifications', () => {
  beforeEach(() => {
    vi.stubGlobal('Notification', { permission: 'default', requestPermission: vi.fn(async () => 'granted') });
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: {
        register,
        addEventListener: (_: string, fn: (event: MessageEvent) => void) => listeners.add(fn),
        removeEventListener: (_: string, fn: (event: MessageEvent) => void) => listeners.delete(fn),
      },
    });
  });
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'serviceWorker');
    listeners.clear();
    vi.clearAllMocks();
  });

  it('asks for permission when signed in without a stored token, then registers the token', async () => {
    const api = fakeApi({ 'GET /api/listQueue': [], 'POST /api/registerFCMToken': { ok: true } });
    renderApp('/', { state: signedInState({ fcmToken: null }), config: pushConfig });
    await waitFor(() => expect(api.callsTo('POST', '/api/registerFCMToken')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/registerFCMToken')[0]?.body).toEqual({
      userId: 'user-1',
      fcmToken: 'push-token-1',
    });
    expect(Notification.requestPermission).toHaveBeenCalledOnce();
    expect(register).toHaveBeenCalledWith('/firebase-messaging-sw.js');
    expect(messaging.getToken).toHaveBeenCalledWith(
      expect.anything(),
      expect.objectContaining({ vapidKey: 'vapid' }),
    );
    await waitFor(() => expect(window.localStorage.getItem('fcm_token')).toBe('push-token-1'));
  });

  it('does not ask again when a token is stored', async () => {
    const api = fakeApi({ 'GET /api/listQueue': [] });
    renderApp('/', { state: signedInState({ fcmToken: 'kept' }), config: pushConfig });
    await screen.findByRole('heading', { name: 'Home' });
    // The push listener is set up in the same commit as the registration effect: that effect has run.
    await waitFor(() => expect(listeners.size).toBe(1));
    // A registration it had started would have loaded the messaging SDK and asked if it is supported.
    await act(async () => {
      await import('firebase/messaging');
    });
    expect(messaging.isSupported).not.toHaveBeenCalled();
    expect(Notification.requestPermission).not.toHaveBeenCalled();
    expect(api.callsTo('POST', '/api/registerFCMToken')).toHaveLength(0);
  });

  it('stays out of the way when the browser has no push support', async () => {
    messaging.isSupported.mockResolvedValueOnce(false);
    const api = fakeApi({ 'GET /api/listQueue': [], 'GET /api/dashboard': makeEmptyDashboard() });
    renderApp('/', { state: signedInState({ fcmToken: null }), config: pushConfig });
    await waitFor(() => expect(messaging.isSupported).toHaveBeenCalledOnce());
    // Once the browser's answer is in, the registration goes on (or stops) without waiting for anything.
    await act(async () => {
      await expect(messaging.isSupported.mock.results[0]!.value).resolves.toBe(false);
    });
    expect(Notification.requestPermission).not.toHaveBeenCalled();
    expect(messaging.getToken).not.toHaveBeenCalled();
    expect(api.callsTo('POST', '/api/registerFCMToken')).toHaveLength(0);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('marks a new report when a push arrives while the app is open', async () => {
    fakeApi({ 'GET /api/listQueue': [] });
    renderApp('/', { state: signedInState({ fcmToken: 'kept' }), config: pushConfig });
    await screen.findByRole('link', { name: 'Reports' });
    await waitFor(() => expect(listeners.size).toBe(1));
    act(() => {
      for (const fn of listeners) {
        fn(
          new MessageEvent('message', {
            data: { type: 'receipt-push', title: 'Receipt ready', body: 'CORNER PANTRY 11.40' },
          }),
        );
      }
    });
    expect(await screen.findByRole('link', { name: 'Reports (new report ready)' })).toBeInTheDocument();
    expect(await screen.findByRole('status')).toHaveTextContent('Receipt ready');
  });
});
