import { randomUUID } from 'node:crypto';
import { cert, deleteApp, initializeApp, type App, type ServiceAccount } from 'firebase-admin/app';
import { getMessaging, type BatchResponse, type MulticastMessage } from 'firebase-admin/messaging';
import { AppError, ConfigurationError, type Notifier, type PushMessage } from '@receipts/core';

/** The part of firebase-admin's Messaging this notifier uses; tests give their own. */
export interface MulticastSender {
  sendEachForMulticast(message: MulticastMessage): Promise<BatchResponse>;
}

/** Options of {@link FcmNotifier}. */
export interface FcmNotifierOptions {
  /** The Firebase project that owns the web app's messaging sender. */
  projectId: string;
  /**
   * The service account key (the composition root reads and checks it); without it firebase-admin
   * uses the application default credentials.
   */
  credentials?: ServiceAccount;
  /** Replaces firebase-admin's messaging (tests); no app is initialised then. */
  messaging?: MulticastSender;
  /**
   * The process's firebase-admin app, shared with the other Firebase adapters; its owner deletes it.
   * Without it the notifier makes and owns its own.
   */
  app?: App;
}

/** FCM takes at most 500 tokens per multicast. */
export const FCM_BATCH_SIZE = 500;

/** Error codes with which FCM says a token will never work again. */
const DEAD_TOKEN_CODES = new Set([
  'messaging/registration-token-not-registered',
  'messaging/invalid-registration-token',
]);

/**
 * Whether a failed send means the token is dead. FCM also answers `invalid-argument` for a bad
 * payload, which would fail every token alike, so that code counts only when it is about the token.
 */
function isDeadToken(error: { code?: string; message?: string } | undefined): boolean {
  if (!error?.code) return false;
  if (DEAD_TOKEN_CODES.has(error.code)) return true;
  return error.code === 'messaging/invalid-argument' && /registration token/i.test(error.message ?? '');
}

/**
 * A Notifier on Firebase Cloud Messaging: sends a notification to a user's registered tokens and
 * reports the tokens FCM says are no longer valid, so that they are removed.
 */
export class FcmNotifier implements Notifier {
  private readonly messaging: MulticastSender;
  private readonly app: App | undefined;

  /**
   * @param options - project id, optional service account key, or a messaging replacement for tests
   * @throws ConfigurationError when the project id is missing
   */
  constructor(options: FcmNotifierOptions) {
    if (options.messaging) {
      this.messaging = options.messaging;
      return;
    }
    if (!options.projectId || options.projectId.trim() === '') {
      throw new ConfigurationError('The Firebase project id is missing; set it to send notifications.', {
        code: 'MissingFirebaseProjectId',
      });
    }
    if (options.app) {
      this.messaging = getMessaging(options.app);
      return;
    }
    const credential = options.credentials === undefined ? undefined : cert(options.credentials);
    this.app = initializeApp(
      { projectId: options.projectId, ...(credential === undefined ? {} : { credential }) },
      `notifier-${randomUUID()}`,
    );
    this.messaging = getMessaging(this.app);
  }

  /**
   * Sends one notification to every token, 500 per request.
   *
   * @param tokens - the user's registered FCM tokens; duplicates are sent once
   * @param message - title, body and optional string data
   * @returns the tokens FCM reported as unregistered or invalid (and empty ones), to be removed
   * @throws AppError (code `NotificationFailed`, cause: the SDK error) when FCM refuses a whole request
   */
  async send(tokens: string[], message: PushMessage): Promise<{ invalidTokens: string[] }> {
    const invalidTokens: string[] = [];
    const unique = [...new Set(tokens)];
    const usable = unique.filter((token) => {
      const ok = typeof token === 'string' && token.trim() !== '';
      if (!ok) invalidTokens.push(token);
      return ok;
    });
    for (let start = 0; start < usable.length; start += FCM_BATCH_SIZE) {
      const batch = usable.slice(start, start + FCM_BATCH_SIZE);
      let result: BatchResponse;
      try {
        result = await this.messaging.sendEachForMulticast({
          tokens: batch,
          notification: { title: message.title, body: message.body },
          ...(message.data === undefined ? {} : { data: message.data }),
        });
      } catch (error) {
        throw new AppError('The notification could not be sent.', {
          code: 'NotificationFailed',
          cause: error,
        });
      }
      result.responses.forEach((response, index) => {
        const token = batch[index];
        if (!response.success && token !== undefined && isDeadToken(response.error))
          invalidTokens.push(token);
      });
    }
    return { invalidTokens };
  }

  /** Releases the firebase-admin app this notifier made (none when an app or messaging was given). */
  async close(): Promise<void> {
    if (this.app) await deleteApp(this.app);
  }
}
