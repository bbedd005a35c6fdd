import { describe, expect, it } from 'vitest';
import { loadConfig, parseAppConfig } from './env';

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

  it('names every field of the wrong type in one message', async () => {
    await expect(
      loadConfig(
        answer({
          firebase: { apiKey: '', authDomain: 'd', projectId: 7, appId: 1 },
          vapidKey: 42,
        }),
      ),
    ).rejects.toThrow(
      '/config.json is incomplete: firebase.apiKey is required; firebase.projectId is required; ' +
        'firebase.appId must be a string; vapidKey must be a string or null.',
    );
    await expect(loadConfig(answer({ authEmulatorUrl: null }))).rejects.toThrow(/firebase must be an object/);
    await expect(loadConfig(answer([1, 2]))).rejects.toThrow('/config.json must hold a JSON object.');
  });

  it('keeps only the fields the app reads', () => {
    expect(
      parseAppConfig({
        firebase: { apiKey: 'k', authDomain: 'd', projectId: 'p', messagingSenderId: '1', extra: 'x' },
        vapidKey: null,
        unknown: true,
      }),
    ).toEqual({
      firebase: { apiKey: 'k', authDomain: 'd', projectId: 'p', messagingSenderId: '1' },
      vapidKey: null,
    });
  });
});
