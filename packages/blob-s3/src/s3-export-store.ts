import { Readable } from 'node:stream';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { AppError, ConfigurationError, StoreError, ValidationError, type ExportStore } from '@receipts/core';

/** Options of {@link S3ExportStore}. */
export interface S3ExportStoreOptions {
  /** A configured client; the store never builds its own. */
  client: S3Client;
  /** The bucket the exports are written to (the image bucket, under `exports/`). */
  bucket: string;
  /** How long a download link is valid; 15 minutes unless told. */
  linkSeconds?: number;
}

/** A download link lasts long enough to start the download, not long enough to be shared around. */
export const EXPORT_LINK_SECONDS = 15 * 60;

/** Only what the exports are written under, so a bug cannot overwrite an image. */
function assertExportKey(key: string): void {
  const parts = key.split('/');
  if (
    parts.length !== 3 ||
    parts[0] !== 'exports' ||
    parts.some((p) => p === '' || p === '.' || p === '..')
  ) {
    throw new ValidationError(`The export key "${key}" is not allowed: use exports/<user>/<file>.`, {
      code: 'InvalidBlobKey',
    });
  }
}

/** A file name safe inside a quoted Content-Disposition value. */
function attachmentName(fileName: string): string {
  return fileName.replace(/[^A-Za-z0-9._-]/g, '_') || 'download.zip';
}

/**
 * Data exports on Amazon S3: the ZIP is sent as a multipart upload while it is being made (parts of
 * 5 MB, so a large archive is never held whole), and the download is a pre-signed GET that names the
 * file as an attachment.
 */
export class S3ExportStore implements ExportStore {
  readonly linkSeconds: number;
  private readonly client: S3Client;
  private readonly bucket: string;

  /** @param options - the S3 client, the bucket and the link lifetime */
  constructor(options: S3ExportStoreOptions) {
    if (!options.bucket || options.bucket.trim() === '') {
      throw new ConfigurationError('The S3 bucket for data exports is not configured.', {
        code: 'MissingBucket',
      });
    }
    this.client = options.client;
    this.bucket = options.bucket;
    this.linkSeconds = options.linkSeconds ?? EXPORT_LINK_SECONDS;
  }

  /**
   * Streams the archive into the bucket as a multipart upload; a failed upload is aborted, so no
   * parts are left behind.
   *
   * @param key - `exports/<uid>/<file>.zip`
   * @param stream - the archive's chunks, in order
   * @param contentType - stored as the object's Content-Type
   * @throws StoreError when S3 refuses the upload
   */
  async save(key: string, stream: AsyncIterable<Uint8Array>, contentType: string): Promise<void> {
    assertExportKey(key);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: Readable.from(stream), ContentType: contentType },
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // An error of the archive itself (reading the data) is passed on as it is.
      if (error instanceof AppError) throw error;
      const name = (error as { name?: string } | null)?.name;
      throw new StoreError(`Could not write the data export "${key}" to the S3 bucket "${this.bucket}".`, {
        code: name ?? 'S3Error',
        cause: error,
      });
    }
  }

  /**
   * @param key - the export's key
   * @param fileName - the name the browser saves it under
   * @returns a pre-signed GET URL, valid for `linkSeconds`
   */
  async link(key: string, fileName: string): Promise<string> {
    assertExportKey(key);
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentDisposition: `attachment; filename="${attachmentName(fileName)}"`,
      }),
      { expiresIn: this.linkSeconds },
    );
  }
}
