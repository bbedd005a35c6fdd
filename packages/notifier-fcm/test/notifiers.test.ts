import type { BatchResponse, MulticastMessage, SendResponse } from 'firebase-admin/messaging';
import { deleteApp, getApps, initializeApp } from 'firebase-admin/app';
import { describe, expect, it } from 'vitest';
import { AppError, ConfigurationError } from '@receipts/core';
import { FCM_BATCH_SIZE, FcmNotifier, type MulticastSender } from '../src';

const message = { title: 'Receipt analysed', body: 'Corner Shop: 12.40 EUR', data: { receiptId: 'u~a.jpg' } };

/** Stands in for firebase-admin's messaging: answers each token by the rule given. */
function fakeMessaging(answer: (token: string) => SendResponse) {
  const requests: MulticastMessage[] = [];
  const messaging: MulticastSender = {
    async sendEachForMulticast(request) {
      requests.push(request);
      const responses = request.tokens.map(answer);
      return {
        responses,
        successCount: responses.filter((response) => response.success).length,
        failureCount: responses.filter((response) => !response.success).length,
      } as BatchResponse;
    },
  };
  return { messaging, requests };
}

function failure(code: string, text = 'failed'): SendResponse {
  return { success: false, error: { code, message: text } as SendResponse['error'] };
}

describe('FcmNotifier', () => {
  it('sends one notification with the data to all tokens and reports none invalid when all succeed', async () => {
    const { messaging, requests } = fakeMessaging(() => ({ success: true, messageId: 'm' }));
    const notifier = new FcmNotifier({ projectId: 'demo-test', messaging });

    const result = await notifier.send(['t1', 't2'], message);

    expect(result).toEqual({ invalidTokens: [] });
    expect(requests).toEqual([
      {
        tokens: ['t1', 't2'],
        notification: { title: message.title, body: message.body },
        data: message.data,
      },
    ]);
  });

  it('reports unregistered and invalid tokens, but keeps tokens that failed for other reasons', async () => {
    const answers: Record<string, SendResponse> = {
      ok: { success: true, messageId: 'm' },
      gone: failure('messaging/registration-token-not-registered'),
      broken: failure('messaging/invalid-registration-token'),
      malformed: failure(
        'messaging/invalid-argument',
        'The registration token is not a valid FCM registration token',
      ),
      payload: failure('messaging/invalid-argument', 'Invalid JSON payload received. Unknown name "x"'),
      busy: failure('messaging/server-unavailable'),
      quota: failure('messaging/message-rate-exceeded'),
      internal: failure('messaging/internal-error'),
    };
    const { messaging } = fakeMessaging((token) => answers[token]!);
    const notifier = new FcmNotifier({ projectId: 'demo-test', messaging });

    const { invalidTokens } = await notifier.send(Object.keys(answers), message);

    expect(invalidTokens.sort()).toEqual(['broken', 'gone', 'malformed']);
  });

  it('sends 500 tokens per request and maps every answer to its own token', async () => {
    const tokens = Array.from({ length: 1201 }, (_, index) => `token-${index}`);
    const dead = new Set(['token-0', 'token-499', 'token-500', 'token-1200']);
    const { messaging, requests } = fakeMessaging((token) =>
      dead.has(token)
        ? failure('messaging/registration-token-not-registered')
        : { success: true, messageId: 'm' },
    );

    const { invalidTokens } = await new FcmNotifier({ projectId: 'demo-test', messaging }).send(
      tokens,
      message,
    );

    expect(FCM_BATCH_SIZE).toBe(500);
    expect(requests.map((request) => request.tokens.length)).toEqual([500, 500, 201]);
    expect(requests.flatMap((request) => request.tokens)).toEqual(tokens);
    expect(invalidTokens.sort()).toEqual([...dead].sort());
  });

  it('makes no request without tokens, sends a duplicate once and reports an empty token', async () => {
    const { messaging, requests } = fakeMessaging(() => ({ success: true, messageId: 'm' }));
    const notifier = new FcmNotifier({ projectId: 'demo-test', messaging });

    expect(await notifier.send([], message)).toEqual({ invalidTokens: [] });
    expect(requests).toHaveLength(0);

    expect(await notifier.send(['a', 'a', ''], message)).toEqual({ invalidTokens: [''] });
    expect(requests.map((request) => request.tokens)).toEqual([['a']]);
  });

  it('leaves out data when the message has none', async () => {
    const { messaging, requests } = fakeMessaging(() => ({ success: true, messageId: 'm' }));
    await new FcmNotifier({ projectId: 'demo-test', messaging }).send(['a'], { title: 't', body: 'b' });
    expect(requests[0]).not.toHaveProperty('data');
  });

  it('reports a refused request as a failed notification that keeps the cause', async () => {
    const refusal = Object.assign(new Error('Credential implementation provided failed'), {
      code: 'app/invalid-credential',
    });
    const messaging: MulticastSender = { sendEachForMulticast: () => Promise.reject(refusal) };

    const error = await new FcmNotifier({ projectId: 'demo-test', messaging })
      .send(['a'], message)
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('NotificationFailed');
    expect((error as AppError).cause).toBe(refusal);
  });

  it('uses a shared firebase-admin app and leaves it to its owner on close', async () => {
    const app = initializeApp({ projectId: 'demo-test' }, 'shared-notifier-test');
    try {
      const notifier = new FcmNotifier({ projectId: 'demo-test', app });
      await notifier.close();
      expect(getApps()).toContain(app);
    } finally {
      await deleteApp(app);
    }
  });

  it('builds its own firebase-admin app per instance, offline, and refuses bad configuration', async () => {
    const first = new FcmNotifier({ projectId: 'demo-test' });
    const second = new FcmNotifier({ projectId: 'demo-test' });
    await first.close();
    await second.close();

    expect(() => new FcmNotifier({ projectId: '' })).toThrow(ConfigurationError);
  });
});
