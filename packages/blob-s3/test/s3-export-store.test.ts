import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError, StoreError, ValidationError } from '@receipts/core';
import { S3ExportStore } from '../src';

const BUCKET = 'receipt-images';
const client = new S3Client({
  region: 'eu-west-1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
});
const s3 = mockClient(client);
const KEY = 'exports/alice/2026-01-02T03-04-05-678Z.zip';

/** `count` chunks of `size` bytes, each filled with its index, made one at a time. */
async function* chunks(count: number, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < count; i++) yield new Uint8Array(size).fill(i);
}

describe('S3ExportStore', () => {
  let store: S3ExportStore;

  beforeEach(() => {
    s3.reset();
    store = new S3ExportStore({ client, bucket: BUCKET });
  });
  afterEach(() => s3.reset());

  it('writes a large archive as a multipart upload of the whole stream, in order', async () => {
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'up-1' });
    s3.on(UploadPartCommand).callsFake((input: { PartNumber: number }) => ({
      ETag: `"etag-${input.PartNumber}"`,
    }));
    s3.on(CompleteMultipartUploadCommand).resolves({});

    // 12 MB in 1 MB chunks: three parts of at most 5 MB.
    await store.save(KEY, chunks(12, 1024 * 1024), 'application/zip');

    const created = s3.commandCalls(CreateMultipartUploadCommand);
    expect(created).toHaveLength(1);
    expect(created[0]!.args[0].input).toMatchObject({
      Bucket: BUCKET,
      Key: KEY,
      ContentType: 'application/zip',
    });
    const parts = s3.commandCalls(UploadPartCommand).map((c) => c.args[0].input);
    expect(parts.length).toBe(3);
    const sizes = parts.map((p) => (p.Body as Uint8Array).byteLength);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(12 * 1024 * 1024);
    const first = parts.find((p) => p.PartNumber === 1)!.Body as Uint8Array;
    expect(first[0]).toBe(0);
    expect(first[first.byteLength - 1]).toBe(4);
    const complete = s3.commandCalls(CompleteMultipartUploadCommand)[0]!.args[0].input;
    expect(complete).toMatchObject({ Bucket: BUCKET, Key: KEY, UploadId: 'up-1' });
    expect(complete.MultipartUpload?.Parts?.map((p) => p.PartNumber)).toEqual([1, 2, 3]);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('aborts the upload and reports a StoreError when S3 refuses a part', async () => {
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'up-2' });
    s3.on(UploadPartCommand).rejects(Object.assign(new Error('denied'), { name: 'AccessDenied' }));
    s3.on(AbortMultipartUploadCommand).resolves({});

    await expect(store.save(KEY, chunks(12, 1024 * 1024), 'application/zip')).rejects.toBeInstanceOf(
      StoreError,
    );
    expect(s3.commandCalls(AbortMultipartUploadCommand)[0]?.args[0].input).toMatchObject({
      Bucket: BUCKET,
      Key: KEY,
      UploadId: 'up-2',
    });
  });

  it('signs a GET of the export key that downloads as an attachment and expires in 15 minutes', async () => {
    const url = new URL(await store.link(KEY, 'receipt-tracker-data-2026-01-02.zip'));
    expect(url.hostname).toContain(BUCKET);
    expect(url.pathname).toBe(`/${KEY}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get('response-content-disposition')).toBe(
      'attachment; filename="receipt-tracker-data-2026-01-02.zip"',
    );
    expect(store.linkSeconds).toBe(900);
  });

  it('refuses keys outside exports/<user>/ and a missing bucket', async () => {
    await expect(store.link('alice/receipt.jpg', 'x.zip')).rejects.toBeInstanceOf(ValidationError);
    await expect(
      store.save('exports/../alice/x.zip', chunks(1, 1), 'application/zip'),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(() => new S3ExportStore({ client, bucket: ' ' })).toThrow(ConfigurationError);
  });
});
