import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchBucket,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError, StoreError, ValidationError } from '@receipts/core';
import { S3BlobStore } from '../src';

const BUCKET = 'receipt-images';
const client = new S3Client({
  region: 'eu-west-1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
});
const s3 = mockClient(client);

function body(bytes: Uint8Array): GetObjectCommandOutput['Body'] {
  return { transformToByteArray: async () => bytes } as unknown as GetObjectCommandOutput['Body'];
}

describe('S3BlobStore', () => {
  let store: S3BlobStore;

  beforeEach(() => {
    s3.reset();
    store = new S3BlobStore({ client, bucket: BUCKET });
  });

  afterEach(() => {
    s3.reset();
  });

  it('puts the bytes with their content type into the bucket', async () => {
    s3.on(PutObjectCommand).resolves({});
    const bytes = new Uint8Array([1, 2, 3]);

    await store.put('user-1/receipt.jpg', bytes, 'image/jpeg');

    const calls = s3.commandCalls(PutObjectCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      Bucket: BUCKET,
      Key: 'user-1/receipt.jpg',
      Body: bytes,
      ContentType: 'image/jpeg',
    });
  });

  it('gets the bytes and content type of an object', async () => {
    s3.on(GetObjectCommand, { Bucket: BUCKET, Key: 'user-1/a.png' }).resolves({
      Body: body(new Uint8Array([9, 8])),
      ContentType: 'image/png',
    });

    const blob = await store.get('user-1/a.png');

    expect(blob).toEqual({ bytes: new Uint8Array([9, 8]), contentType: 'image/png' });
  });

  it('answers null for a missing object', async () => {
    s3.on(GetObjectCommand).rejects(
      new NoSuchKey({ message: 'The specified key does not exist.', $metadata: { httpStatusCode: 404 } }),
    );
    expect(await store.get('user-1/missing.jpg')).toBeNull();
  });

  it('falls back to a generic content type when the object has none', async () => {
    s3.on(GetObjectCommand).resolves({ Body: body(new Uint8Array([1])) });
    expect((await store.get('user-1/a'))?.contentType).toBe('application/octet-stream');
  });

  it('deletes by bucket and key', async () => {
    s3.on(DeleteObjectCommand).resolves({});
    await store.delete('user-1/a.jpg');
    expect(s3.commandCalls(DeleteObjectCommand)[0]!.args[0].input).toEqual({
      Bucket: BUCKET,
      Key: 'user-1/a.jpg',
    });
  });

  it('lists every page of keys under a prefix', async () => {
    s3.on(ListObjectsV2Command, { Bucket: BUCKET, Prefix: 'user-1/', ContinuationToken: undefined }).resolves(
      {
        Contents: [{ Key: 'user-1/a.jpg' }, { Key: 'user-1/b.jpg' }],
        IsTruncated: true,
        NextContinuationToken: 'page-2',
      },
    );
    s3.on(ListObjectsV2Command, { Bucket: BUCKET, Prefix: 'user-1/', ContinuationToken: 'page-2' }).resolves({
      Contents: [{ Key: 'user-1/c.jpg' }],
      IsTruncated: true,
      NextContinuationToken: 'page-3',
    });
    s3.on(ListObjectsV2Command, { Bucket: BUCKET, Prefix: 'user-1/', ContinuationToken: 'page-3' }).resolves({
      IsTruncated: false,
    });

    const keys = await store.list('user-1/');

    expect(keys).toEqual(['user-1/a.jpg', 'user-1/b.jpg', 'user-1/c.jpg']);
    expect(s3.commandCalls(ListObjectsV2Command).map((call) => call.args[0].input.ContinuationToken)).toEqual(
      [undefined, 'page-2', 'page-3'],
    );
  });

  it('lists the whole bucket for an empty prefix and an empty bucket as no keys', async () => {
    s3.on(ListObjectsV2Command).resolves({ KeyCount: 0, IsTruncated: false });
    expect(await store.list('')).toEqual([]);
    expect(s3.commandCalls(ListObjectsV2Command)[0]!.args[0].input.Prefix).toBeUndefined();
  });

  it('locates an object for analyzers that read S3 themselves', () => {
    expect(store.locate('user-1/a.jpg')).toEqual({ bucket: BUCKET, key: 'user-1/a.jpg' });
  });

  it('refuses unsafe keys before calling S3', async () => {
    for (const key of ['', '../a.jpg', 'user-1/../x', '/abs.jpg', 'a\\b', 'a\0b', 'a//b']) {
      await expect(store.put(key, new Uint8Array(), 'image/jpeg'), key).rejects.toBeInstanceOf(
        ValidationError,
      );
      await expect(store.get(key), key).rejects.toBeInstanceOf(ValidationError);
      expect(() => store.locate(key), key).toThrow(ValidationError);
    }
    expect(s3.calls()).toHaveLength(0);
  });

  it('refuses a missing bucket name', () => {
    expect(() => new S3BlobStore({ client, bucket: '' })).toThrow(ConfigurationError);
  });

  it('translates a missing bucket into a configuration error', async () => {
    s3.on(PutObjectCommand).rejects(
      new NoSuchBucket({ message: 'no bucket', $metadata: { httpStatusCode: 404 } }),
    );
    const error = await store
      .put('user-1/a.jpg', new Uint8Array(), 'image/jpeg')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain(BUCKET);
  });

  it('translates access denied into a store error with status 403 and the cause', async () => {
    const denied = new S3ServiceException({
      name: 'AccessDenied',
      $fault: 'client',
      message: 'Access Denied',
      $metadata: { httpStatusCode: 403 },
    });
    s3.on(GetObjectCommand).rejects(denied);
    const error = await store.get('user-1/a.jpg').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).status).toBe(403);
    expect((error as StoreError).cause).toBe(denied);
  });

  it('wraps an unknown failure in a store error that keeps the cause', async () => {
    const failure = new Error('socket hang up');
    s3.on(ListObjectsV2Command).rejects(failure);
    const error = await store.list('user-1/').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).cause).toBe(failure);
    expect((error as Error).message).toMatch(/list the blobs/);
  });
});
