import { ConfigurationError } from '@receipts/core';

/** The parts of a Google service account key that the Firebase Admin SDK's `cert()` needs. */
export interface ServiceAccountKey {
  projectId: string | undefined;
  clientEmail: string;
  privateKey: string;
}

/**
 * Parses a Google service account key given as JSON (the key file's content), for the adapters that
 * sign in to Firebase with one.
 * @param credentialsJson - the key file's content
 * @throws ConfigurationError naming what is wrong, never quoting the key
 */
export function parseServiceAccountKey(credentialsJson: string): ServiceAccountKey {
  let account: Record<string, unknown> | null;
  try {
    account = JSON.parse(credentialsJson) as Record<string, unknown> | null;
  } catch {
    throw new ConfigurationError('The Firebase service account credentials are not valid JSON.', {
      code: 'InvalidFirebaseCredentials',
    });
  }
  if (
    typeof account !== 'object' ||
    account === null ||
    typeof account.private_key !== 'string' ||
    typeof account.client_email !== 'string'
  ) {
    throw new ConfigurationError(
      'The Firebase service account credentials lack "private_key" or "client_email"; use the JSON key ' +
        'file of a service account.',
      { code: 'InvalidFirebaseCredentials' },
    );
  }
  return {
    projectId: typeof account.project_id === 'string' ? account.project_id : undefined,
    clientEmail: account.client_email,
    privateKey: account.private_key,
  };
}
