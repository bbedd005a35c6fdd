import { ConfigurationError } from '@receipts/core';

/** The methods of a port that answer with a promise (a lazy port can only stand in for those). */
export type AsyncMethodsOf<T> = {
  [K in keyof T]-?: NonNullable<T[K]> extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof T];

const LOAD = Symbol('load the port');

/**
 * A port whose adapter is imported and built on its first call, not when the process starts: a
 * function whose route never calls it never loads the adapter or its SDK, and its bundle need not
 * hold them (see infra/lib/bundling.ts). A failed load is tried again on the next call.
 *
 * @param load - imports and builds the adapter
 * @param methods - every async method of the port (the type makes the list complete)
 */
export function lazyPort<T extends object>(
  load: () => Promise<T>,
  methods: Record<AsyncMethodsOf<T>, true>,
): T {
  let loading: Promise<T> | undefined;
  const get = (): Promise<T> => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const port: Record<PropertyKey, unknown> = { [LOAD]: get };
  for (const name of Object.keys(methods)) {
    port[name] = async (...args: unknown[]) => {
      const adapter = (await get()) as Record<string, ((...a: unknown[]) => unknown) | undefined>;
      return adapter[name]?.(...args);
    };
  }
  return port as T;
}

/**
 * The adapter behind a port, loaded if it was not yet; the port itself when it is not lazy. For the
 * few callers that need more than its async methods (the worker reads `BlobStore.locate`).
 */
export async function loadedPort<T extends object>(port: T): Promise<T> {
  const load = (port as Record<PropertyKey, unknown>)[LOAD] as (() => Promise<T>) | undefined;
  return load ? load() : port;
}

/**
 * Imports an adapter module, saying in words which one when this function's bundle was built
 * without it (its route was not expected to need it) instead of Node's bare "cannot find package".
 */
export async function importAdapter<M>(name: string, load: () => Promise<M>): Promise<M> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new ConfigurationError(
        `This function was built without ${name}, which its route was not expected to use; ` +
          'see the function bundling in infra/lib/bundling.ts and deploy again.',
        { code: 'AdapterNotBundled', cause: error },
      );
    }
    throw error;
  }
}
