import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '@receipts/core';
import { parseServiceAccountKey } from '../src/service-account';

describe('parseServiceAccountKey', () => {
  it('reads the parts of a service account key that signing in needs', () => {
    const key = JSON.stringify({
      type: 'service_account',
      project_id: 'receipts-demo',
      client_email: 'api@receipts-demo.iam.gserviceaccount.com',
      private_key: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n',
    });
    expect(parseServiceAccountKey(key)).toEqual({
      projectId: 'receipts-demo',
      clientEmail: 'api@receipts-demo.iam.gserviceaccount.com',
      privateKey: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n',
    });
    expect(parseServiceAccountKey('{"client_email":"a@b","private_key":"k"}').projectId).toBeUndefined();
  });

  it('refuses what is not a key with a ConfigurationError that does not quote it', () => {
    const secret = '{"private_key": "s3cret-value", ';
    expect(() => parseServiceAccountKey(secret)).toThrow(ConfigurationError);
    expect(() => parseServiceAccountKey(secret)).not.toThrow(/s3cret/);
    expect(() => parseServiceAccountKey('null')).toThrow(/lack "private_key" or "client_email"/);
    expect(() => parseServiceAccountKey('{"private_key":"s3cret"}')).toThrow(/client_email/);
    expect(() => parseServiceAccountKey('{"private_key":"s3cret"}')).not.toThrow(/s3cret/);
  });
});
