import { describe, expect, it } from 'vitest';
import { loadConfig } from './env';

const answer =
  (body: unknown, status = 200) =>
  async () =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });

describe('loadConfig', () => {
  it('accepts the runtime config with the optional fields', async () => {
    const config = await loadConfig(
      answer({
        firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-receipts' },
        authEmulatorUrl: 'http://127.0.0.1:9099',
        vapidKey: null,
        adminEmail: 'admin@example.com',
      }),
    );
    expect(config.authEmulatorUrl).toBe('http://127.0.0.1:9099');
    expect(config.firebase.projectId).toBe('demo-receipts');
  });

  it('names the missing field', async () => {
    await expect(loadConfig(answer({ firebase: { apiKey: 'k', authDomain: 'd' } }))).rejects.toThrow(
      /firebase\.projectId/,
    );
  });

  it('explains a failed or garbled answer', async () => {
    await expect(loadConfig(answer('nope', 404))).rejects.toThrow(
      'The server answered 404 for /config.json.',
    );
    await expect(loadConfig(answer('<html>'))).rejects.toThrow('/config.json is not valid JSON.');
    await expect(
      loadConfig(async () => {
        throw new TypeError('Failed to fetch');
      }),
    ).rejects.toThrow(/Could not reach the server/);
  });
});
