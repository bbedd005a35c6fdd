import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

/** Runs public/firebase-messaging-sw.js against a fake worker scope at https://receipts.example. */
function loadWorker() {
  const handlers: Record<string, (event: unknown) => void> = {};
  const opened: string[] = [];
  const self = {
    location: { origin: 'https://receipts.example' },
    addEventListener: (type: string, handler: (event: unknown) => void) => (handlers[type] = handler),
    clients: {
      matchAll: async () => [],
      openWindow: async (url: string) => void opened.push(url),
      claim: async () => undefined,
    },
    skipWaiting: () => undefined,
  };
  const source = readFileSync(join(import.meta.dirname, '../../../public/firebase-messaging-sw.js'), 'utf8');
  runInNewContext(source, { self, URL });
  async function click(link: unknown): Promise<string | undefined> {
    let done: Promise<unknown> = Promise.resolve();
    handlers.notificationclick!({
      notification: { close: () => undefined, data: { link } },
      waitUntil: (promise: Promise<unknown>) => (done = promise),
    });
    await done;
    return opened.pop();
  }
  return { click };
}

describe('the push service worker', () => {
  it('opens only links on this site from a notification', async () => {
    const worker = loadWorker();
    expect(await worker.click('/Receipt?id=1')).toBe('/Receipt?id=1');
    expect(await worker.click('https://receipts.example/Reports#top')).toBe('/Reports#top');
    expect(await worker.click('https://evil.example/phish')).toBe('/Reports');
    expect(await worker.click('//evil.example/phish')).toBe('/Reports');
    expect(await worker.click('javascript:alert(1)')).toBe('/Reports');
    expect(await worker.click(undefined)).toBe('/Reports');
  });
});
