import type { Logger, Notifier, PushMessage } from '@receipts/core';

/** Options of {@link LogNotifier}. */
export interface LogNotifierOptions {
  logger: Logger;
}

/** The Notifier of the local server: writes the notification to the log instead of pushing it. */
export class LogNotifier implements Notifier {
  private readonly logger: Logger;

  /** @param options - where the notifications are written */
  constructor(options: LogNotifierOptions) {
    this.logger = options.logger;
  }

  /**
   * Logs the notification with the number of devices it would go to.
   *
   * @returns no invalid tokens: nothing was sent, so no token was found dead
   */
  async send(tokens: string[], message: PushMessage): Promise<{ invalidTokens: string[] }> {
    // The tokens themselves stay out of the log: they address a user's devices.
    this.logger.info('notification', {
      title: message.title,
      body: message.body,
      ...(message.data === undefined ? {} : { data: message.data }),
      devices: new Set(tokens).size,
    });
    return { invalidTokens: [] };
  }
}
