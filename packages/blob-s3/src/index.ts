export { S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store';
export { EXPORT_LINK_SECONDS, S3ExportStore, type S3ExportStoreOptions } from './s3-export-store';
