import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { StoreError, ValidationError, type BlobStore } from '@receipts/core';

/** Options of {@link LocalBlobStore}. */
export interface LocalBlobStoreOptions {
  /** Folder that holds the blobs; created when first written. */
  root: string;
}

/** Folders of the store's own bookkeeping under root; no key may start with a dot, so none clash. */
const META_DIR = '.meta';
const TEMP_DIR = '.tmp';

/** Content types by extension, for blobs whose sidecar is missing (e.g. a file copied in by hand). */
const TYPES_BY_EXTENSION: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.json': 'application/json',
};

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Checks the parts of a key or prefix: plain names only, so that no key can reach outside root or
 * into the store's own folders.
 */
function assertPlainSegments(segments: string[], what: string, value: string): void {
  for (const segment of segments) {
    if (segment === '' || segment.startsWith('.')) {
      throw new ValidationError(
        `The ${what} "${value}" is not allowed: each part between slashes must be a non-empty name that does ` +
          'not start with a dot.',
        { code: 'InvalidBlobKey' },
      );
    }
  }
}

function assertNoForbiddenCharacters(value: string, what: string): void {
  if (value.includes('\\') || value.includes('\0')) {
    throw new ValidationError(`The ${what} "${value.replace(/\0/g, '\\0')}" contains a backslash or NUL.`, {
      code: 'InvalidBlobKey',
    });
  }
  if (value.startsWith('/')) {
    throw new ValidationError(`The ${what} "${value}" must be relative, not start with a slash.`, {
      code: 'InvalidBlobKey',
    });
  }
}

/**
 * A BlobStore on the local disk (`npm start`): the blob with key `<uid>/<file>` is the file
 * `<root>/<uid>/<file>`, its content type a small JSON sidecar under `<root>/.meta/`.
 *
 * Writes go to a temporary file that is flushed and then renamed over the target, so a reader or a
 * crash never sees half a file: a blob is either the old bytes or the new ones.
 */
export class LocalBlobStore implements BlobStore {
  private readonly root: string;

  /** @param options - the folder that holds the blobs */
  constructor(options: LocalBlobStoreOptions) {
    if (!options.root || options.root.trim() === '') {
      throw new ValidationError('The blob folder (root) is missing.', { code: 'InvalidBlobRoot' });
    }
    this.root = resolve(options.root);
  }

  /**
   * Stores bytes under a key, replacing what was there, atomically.
   *
   * @param key - `<uid>/<file>`; relative, plain names, no `..`, backslash or NUL
   * @param bytes - the content
   * @param contentType - kept with the blob and returned by {@link get}
   * @throws ValidationError when the key is not allowed
   * @throws StoreError when the disk refuses the write
   */
  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const path = this.pathOf(key);
    try {
      await mkdir(dirname(path), { recursive: true });
      await mkdir(dirname(this.metaPathOf(key)), { recursive: true });
      await mkdir(join(this.root, TEMP_DIR), { recursive: true });
      // Content first: if we stop between the two renames the content type is derived from the name.
      await this.writeAtomically(path, bytes);
      await this.writeAtomically(this.metaPathOf(key), Buffer.from(JSON.stringify({ contentType })));
    } catch (error) {
      if (error instanceof ValidationError) throw error;
      if (errorCode(error) === 'EISDIR' || errorCode(error) === 'ENOTDIR' || errorCode(error) === 'EEXIST') {
        throw new ValidationError(
          `The blob key "${key}" clashes with another key that is a folder or a file.`,
          {
            code: 'InvalidBlobKey',
            cause: error,
          },
        );
      }
      throw new StoreError(`Could not write the blob "${key}" under ${this.root}.`, { cause: error });
    }
  }

  /**
   * Reads a blob.
   *
   * @param key - the blob's key
   * @returns the bytes and content type, or null when there is no such blob
   * @throws ValidationError when the key is not allowed
   */
  async get(key: string): Promise<{ bytes: Uint8Array; contentType: string } | null> {
    const path = this.pathOf(key);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (error) {
      if (['ENOENT', 'ENOTDIR', 'EISDIR'].includes(errorCode(error) ?? '')) return null;
      throw new StoreError(`Could not read the blob "${key}" under ${this.root}.`, { cause: error });
    }
    return {
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      contentType: await this.contentTypeOf(key),
    };
  }

  /**
   * Removes a blob; absent is not an error.
   *
   * @param key - the blob's key
   * @throws ValidationError when the key is not allowed
   */
  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    for (const file of [path, this.metaPathOf(key)]) {
      try {
        await unlink(file);
      } catch (error) {
        if (['ENOENT', 'ENOTDIR'].includes(errorCode(error) ?? '')) continue;
        if (errorCode(error) === 'EISDIR' || errorCode(error) === 'EPERM') {
          // The key names a folder of other blobs, not a blob: nothing to delete.
          continue;
        }
        throw new StoreError(`Could not delete the blob "${key}" under ${this.root}.`, { cause: error });
      }
    }
  }

  /**
   * Keys that start with a prefix, sorted.
   *
   * @param prefix - e.g. `<uid>/`; empty lists every blob
   * @throws ValidationError when the prefix could reach outside root
   */
  async list(prefix: string): Promise<string[]> {
    assertNoForbiddenCharacters(prefix, 'prefix');
    const folders = prefix.split('/').slice(0, -1);
    assertPlainSegments(folders, 'prefix', prefix);
    const keys: string[] = [];
    await this.walk(folders, keys);
    return keys.filter((key) => key.startsWith(prefix)).sort();
  }

  private async walk(folders: string[], keys: string[]): Promise<void> {
    let entries;
    try {
      entries = await readdir(join(this.root, ...folders), { withFileTypes: true });
    } catch (error) {
      if (['ENOENT', 'ENOTDIR'].includes(errorCode(error) ?? '')) return;
      throw new StoreError(`Could not list the blobs under ${this.root}.`, { cause: error });
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) await this.walk([...folders, entry.name], keys);
      else if (entry.isFile()) keys.push([...folders, entry.name].join('/'));
    }
  }

  private pathOf(key: string): string {
    if (typeof key !== 'string' || key === '') {
      throw new ValidationError('A blob key is required.', { code: 'InvalidBlobKey' });
    }
    assertNoForbiddenCharacters(key, 'blob key');
    assertPlainSegments(key.split('/'), 'blob key', key);
    const path = resolve(this.root, ...key.split('/'));
    // Belt and braces: the checks above already keep every key inside root.
    if (!path.startsWith(this.root + sep)) {
      throw new ValidationError(`The blob key "${key}" points outside the blob folder.`, {
        code: 'InvalidBlobKey',
      });
    }
    return path;
  }

  private metaPathOf(key: string): string {
    return join(this.root, META_DIR, ...key.split('/')) + '.json';
  }

  private async contentTypeOf(key: string): Promise<string> {
    try {
      const meta = JSON.parse(await readFile(this.metaPathOf(key), 'utf8')) as { contentType?: unknown };
      if (typeof meta.contentType === 'string' && meta.contentType !== '') return meta.contentType;
    } catch {
      // No sidecar (or a damaged one): fall back to the name.
    }
    return TYPES_BY_EXTENSION[extname(key).toLowerCase()] ?? 'application/octet-stream';
  }

  private async writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
    const temp = join(this.root, TEMP_DIR, randomUUID());
    try {
      const handle = await open(temp, 'wx');
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}
