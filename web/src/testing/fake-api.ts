import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  authorization: string | null;
}

/** A JSON body, or `{ status, body }`. */
type Answer = object | string | number | boolean | null;
type Handler = (call: RecordedCall) => Answer | Promise<Answer>;

function isAnswer(value: unknown): value is { status?: number; body?: unknown } {
  return typeof value === 'object' && value !== null && ('status' in value || 'body' in value);
}

/**
 * Replaces `fetch` with a small in-memory /api. Handlers are keyed 'METHOD /path' and return either a
 * JSON body or `{ status, body }` (or are that value itself). Unknown routes answer 404 with the API's error shape.
 */
export function fakeApi(handlers: Record<string, Handler | Answer>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const headers = new Headers(init?.headers);
    const call: RecordedCall = {
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      authorization: headers.get('authorization'),
    };
    calls.push(call);
    const handler = handlers[`${call.method} ${call.path}`];
    // As a browser does: an aborted call fails at once with an AbortError, answered or not.
    const signal = init?.signal;
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
      if (signal?.aborted) fail();
      else signal?.addEventListener('abort', fail, { once: true });
    });
    const answer = await Promise.race([
      typeof handler === 'function'
        ? (handler as Handler)(call)
        : handler !== undefined
          ? handler
          : { status: 404, body: { error: 'NotFound', message: `No route ${call.method} ${call.path}` } },
      aborted,
    ]);
    const { status = 200, body } = isAnswer(answer) ? answer : { status: 200, body: answer };
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    /** The calls made to one route. */
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}
