import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { ConfigurationError, StoreError, ValidationError, type BlobStore } from '@receipts/core';

/** Options of {@link S3BlobStore}. */
export interface S3BlobStoreOptions {
  /** A configured client; the store never builds its own. */
  client: S3Client;
  /** The bucket that holds the blobs. */
  bucket: string;
}

interface AwsErrorShape {
  name?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

function awsError(error: unknown): AwsErrorShape {
  return typeof error === 'object' && error !== null ? (error as AwsErrorShape) : {};
}

/**
 * The same key rules as the local store, so a key that works locally works in the cloud and back:
 * relative, slash-separated, no `.`/`..` or empty parts, no backslash or NUL.
 */
function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key === '') {
    throw new ValidationError('A blob key is required.', { code: 'InvalidBlobKey' });
  }
  const unsafe =
    key.startsWith('/') ||
    key.includes('\\') ||
    key.includes('\0') ||
    key.split('/').some((part) => part === '' || part === '.' || part === '..');
  if (unsafe) {
    throw new ValidationError(
      `The blob key "${key.replace(/\0/g, '\\0')}" is not allowed: use relative names separated by single ` +
        'slashes, without "..", backslashes or NUL.',
      { code: 'InvalidBlobKey' },
    );
  }
}

/**
 * A BlobStore on Amazon S3. Objects keep their content type; `locate()` tells an analyzer that reads
 * S3 itself (Textract) where the object is, so the image is not sent twice.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  /** @param options - the S3 client and the bucket */
  constructor(options: S3BlobStoreOptions) {
    if (!options.bucket || options.bucket.trim() === '') {
      throw new ConfigurationError('The S3 bucket for receipt images is not configured.', {
        code: 'MissingBucket',
      });
    }
    this.client = options.client;
    this.bucket = options.bucket;
  }

  /**
   * Stores bytes under a key, replacing what was there (PutObject is atomic in S3).
   *
   * @param key - `<uid>/<file>`
   * @param bytes - the content
   * @param contentType - stored as the object's Content-Type
   * @throws ValidationError when the key is not allowed; StoreError or ConfigurationError when S3 refuses
   */
  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType }),
      );
    } catch (error) {
      throw this.translate(error, `write the blob "${key}"`);
    }
  }

  /**
   * Reads an object.
   *
   * @param key - the blob's key
   * @returns the bytes and content type, or null when there is no such object
   */
  async get(key: string): Promise<{ bytes: Uint8Array; contentType: string } | null> {
    assertValidKey(key);
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!response.Body) return null;
      const bytes = await response.Body.transformToByteArray();
      return { bytes, contentType: response.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (awsError(error).name === 'NoSuchKey') return null;
      throw this.translate(error, `read the blob "${key}"`);
    }
  }

  /**
   * Removes an object; S3 answers success for a missing one too.
   *
   * @param key - the blob's key
   */
  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      throw this.translate(error, `delete the blob "${key}"`);
    }
  }

  /**
   * Every key under a prefix, following ListObjectsV2's continuation tokens to the last page.
   *
   * @param prefix - e.g. `<uid>/`; empty lists the whole bucket
   */
  async list(prefix: string): Promise<string[]> {
    if (prefix.includes('\0') || prefix.includes('\\')) {
      throw new ValidationError('A blob prefix may not contain a backslash or NUL.', {
        code: 'InvalidBlobKey',
      });
    }
    const keys: string[] = [];
    let continuationToken: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix === '' ? undefined : prefix,
            ContinuationToken: continuationToken,
          }),
        );
      } catch (error) {
        throw this.translate(error, `list the blobs under "${prefix}"`);
      }
      for (const object of page.Contents ?? []) {
        if (object.Key !== undefined) keys.push(object.Key);
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken !== undefined);
    return keys;
  }

  /**
   * @param key - the blob's key
   * @returns the bucket and key, for analyzers that read the object from S3 themselves
   */
  locate(key: string): { bucket: string; key: string } {
    assertValidKey(key);
    return { bucket: this.bucket, key };
  }

  private translate(error: unknown, action: string): Error {
    const { name, $metadata } = awsError(error);
    const status = $metadata?.httpStatusCode;
    if (name === 'NoSuchBucket') {
      return new ConfigurationError(`Could not ${action}: the S3 bucket "${this.bucket}" does not exist.`, {
        code: 'NoSuchBucket',
        cause: error,
      });
    }
    if (name === 'AccessDenied' || status === 403) {
      return new StoreError(
        `Could not ${action}: access to the S3 bucket "${this.bucket}" was denied. Check the function's role.`,
        { code: 'AccessDenied', status: 403, cause: error },
      );
    }
    return new StoreError(`Could not ${action} in the S3 bucket "${this.bucket}".`, {
      code: name ?? 'S3Error',
      ...(status === undefined ? {} : { status }),
      cause: error,
    });
  }
}
