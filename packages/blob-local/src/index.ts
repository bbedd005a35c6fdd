export { LocalBlobStore, type LocalBlobStoreOptions } from './local-blob-store';
