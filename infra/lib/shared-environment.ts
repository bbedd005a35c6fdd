/**
 * What every function's composition root reads, and the grants that pair with it. Environment values
 * are not permissions: a function sees the names of all resources but may only use those its route
 * was granted.
 */
import { Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { appDataCacheKey, reportPagesCacheKey, reportSharesCacheKey } from '@receipts/core';
import type { AppConfig } from './config';
import type { ImageAccess } from './routes';
import {
  DATA_EXPORTS_PREFIX,
  importedWildcardFinding,
  importSecret,
  type ImportedStorage,
  type TableStoreAccess,
} from './storage-stack';

export interface SharedEnvironmentProps {
  readonly config: AppConfig;
  readonly store: TableStoreAccess;
  readonly storage: ImportedStorage;
  readonly queue: sqs.IQueue;
  readonly maxScanAttempts: number;
  /**
   * Whether the function is told where the Firebase service account is. The composition root reads
   * the secret at start when told, so only functions granted the secret may be told.
   */
  readonly firebaseServiceAccount: boolean;
}

/**
 * The Firebase service account secret (token verification and push notifications).
 *
 * @param scope - any construct of the stack that uses it
 * @param config - the deployment's settings
 */
export function importFirebaseSecret(scope: Construct, config: AppConfig): secretsmanager.ISecret {
  return importSecret(scope, 'FirebaseServiceAccount', config.firebaseServiceAccountSecretName);
}

/**
 * The environment of every function. FIREBASE_AUTH_EMULATOR_HOST is never set: with it, firebase-admin
 * accepts unsigned tokens.
 *
 * @param scope - any construct of the functions' stack
 * @param props - the resources the functions are told about
 */
export function sharedEnvironment(scope: Construct, props: SharedEnvironmentProps): Record<string, string> {
  const { config } = props;
  return {
    ...props.store.environment,
    BLOB_STORE: 's3',
    S3_BUCKET: props.storage.imagesBucket.bucketName,
    ANALYZER: 'textract',
    SCAN_QUEUE: 'sqs',
    SCAN_QUEUE_URL: props.queue.queueUrl,
    NOTIFIER: 'fcm',
    FIREBASE_PROJECT_ID: config.firebaseProjectId,
    // Public (the web app ships it); lets the API ask Firebase Auth whether a sign-in was revoked or
    // its account disabled without a service account key.
    FIREBASE_WEB_API_KEY: config.firebaseWebConfig.apiKey,
    ...(props.firebaseServiceAccount
      ? { FIREBASE_SERVICE_ACCOUNT_SECRET_ARN: importFirebaseSecret(scope, config).secretArn }
      : {}),
    ADMIN_EMAILS: config.adminEmails.join(','),
    MAX_SCAN_ATTEMPTS: String(props.maxScanAttempts),
    LOG_LEVEL: config.logLevel,
  };
}

const IMAGE_ACTIONS: Record<Exclude<ImageAccess, 'list'>, string> = {
  read: 's3:GetObject',
  put: 's3:PutObject',
  delete: 's3:DeleteObject',
};

/**
 * Grants exactly the object actions a function needs on the images bucket.
 *
 * @param role - the function's role
 * @param storage - the imported storage resources
 * @param access - what the function does with images and analysis results
 */
export function grantImages(role: iam.Role, storage: ImportedStorage, access: readonly ImageAccess[]): void {
  const bucket = storage.imagesBucket;
  const objectActions = access.flatMap((kind) => (kind === 'list' ? [] : [IMAGE_ACTIONS[kind]]));
  if (objectActions.length > 0) {
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'ReceiptImages',
        actions: objectActions,
        resources: [bucket.arnForObjects('*')],
      }),
    );
    Validations.of(role).acknowledge({
      id: importedWildcardFinding(storage.exportNames.imagesBucketArn, '/*'),
      reason:
        'Object actions on the receipt images bucket only; object keys are per user and per upload, so they are not known when the policy is written.',
    });
  }
  // Reading needs ListBucket too: without it a missing object answers 403 instead of 404.
  if (access.includes('list') || access.includes('read')) {
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'ReceiptImagesList',
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
      }),
    );
  }
}

/**
 * Lets a function write data exports (a multipart upload, aborted when it fails) and read them, the
 * read being what its pre-signed download links are signed for; nothing else in the bucket.
 */
export function grantDataExports(role: iam.Role, storage: ImportedStorage): void {
  const pattern = `${DATA_EXPORTS_PREFIX}*`;
  role.addToPolicy(
    new iam.PolicyStatement({
      sid: 'DataExports',
      actions: ['s3:PutObject', 's3:GetObject', 's3:AbortMultipartUpload'],
      resources: [storage.imagesBucket.arnForObjects(pattern)],
    }),
  );
  Validations.of(role).acknowledge({
    id: importedWildcardFinding(storage.exportNames.imagesBucketArn, `/${pattern}`),
    reason:
      'Each data export has its own key under exports/<user id>/; the wildcard stands for the user and the time.',
  });
}

/**
 * Lets a function read and rewrite users' cached report data, and nothing else in the bucket.
 *
 * @param role - the function's role
 * @param storage - the imported storage resources
 */
export function grantAppDataCache(role: iam.Role, storage: ImportedStorage): void {
  const bucket = storage.imagesBucket;
  // The report data, and the first pages of the report tables with what each receipt adds to them
  // (kept in parts by receipt: `report-shares-<n>.json`).
  const patterns = [appDataCacheKey('*'), reportPagesCacheKey('*'), reportSharesCacheKey('*')];
  role.addToPolicy(
    new iam.PolicyStatement({
      sid: 'AppDataCache',
      actions: ['s3:GetObject', 's3:PutObject'],
      resources: patterns.map((pattern) => bucket.arnForObjects(pattern)),
    }),
  );
  role.addToPolicy(
    new iam.PolicyStatement({
      sid: 'AppDataCacheList',
      actions: ['s3:ListBucket'],
      resources: [bucket.bucketArn],
    }),
  );
  for (const pattern of patterns) {
    Validations.of(role).acknowledge({
      id: importedWildcardFinding(storage.exportNames.imagesBucketArn, `/${pattern}`),
      reason:
        "Each user's cached report data has its own keys under cache/<user id>/; the wildcards stand for the user id and, for the receipts' shares, the number of the part.",
    });
  }
}
