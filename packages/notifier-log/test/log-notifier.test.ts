import { describe, expect, it } from 'vitest';
import type { Logger } from '@receipts/core';
import { LogNotifier } from '../src';

const message = { title: 'Receipt analysed', body: 'Corner Shop: 12.40 EUR', data: { receiptId: 'u~a.jpg' } };

describe('LogNotifier', () => {
  it('logs the notification and how many devices it is for, never the tokens, and finds none invalid', async () => {
    const lines: Array<{ message: string; fields?: Record<string, unknown> }> = [];
    const logger: Logger = {
      debug() {},
      info: (text, fields) => void lines.push({ message: text, fields }),
      warn() {},
      error() {},
    };

    const result = await new LogNotifier({ logger }).send(['secret-token-1', 'secret-token-2'], message);

    expect(result).toEqual({ invalidTokens: [] });
    expect(lines).toEqual([
      {
        message: 'notification',
        fields: { title: message.title, body: message.body, data: message.data, devices: 2 },
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret-token');
  });
});
