import type { BlobStore, Logger } from '../ports';

type BlobDeps = { blobs: BlobStore; logger: Logger };

/** A cached blob's bytes, or null when it is not there or cannot be read (a cache only costs speed). */
export function readCacheBlob(deps: BlobDeps, key: string): Promise<{ bytes: Uint8Array } | null> {
  return deps.blobs.get(key).catch((error: unknown) => {
    deps.logger.warn('report cache unreadable', { key, error: String(error) });
    return null;
  });
}

/** A cached JSON blob with a string `version`, parsed; null when missing or unreadable. */
export async function readJsonCache<T extends { version: string }>(
  deps: BlobDeps,
  key: string,
): Promise<T | null> {
  const cached = await readCacheBlob(deps, key);
  if (!cached) return null;
  try {
    const value = JSON.parse(new TextDecoder().decode(cached.bytes)) as T;
    return typeof value?.version === 'string' ? value : null;
  } catch (error) {
    deps.logger.warn('report cache unreadable', { key, error: String(error) });
    return null;
  }
}

/** Writes a cached blob; a failure is logged, not thrown (it only costs speed). */
export async function writeJsonCache(deps: BlobDeps, key: string, value: unknown): Promise<void> {
  const json = typeof value === 'string' ? value : JSON.stringify(value);
  try {
    await deps.blobs.put(key, new TextEncoder().encode(json), 'application/json');
  } catch (error) {
    deps.logger.warn('report cache not written', { key, error: String(error) });
  }
}
