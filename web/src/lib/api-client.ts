import type { ErrorAnswer, RouteAnswers } from '@receipts/core/contract/answers';
import { ROUTES, type RouteName } from '@receipts/core/contract/routes';
import { getIdToken } from './firebase';

/** A failed /api call; `message` is the server's own words when it sent any. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    /** The receipt the answer is about (a duplicate upload names the earlier one). */
    readonly receiptId?: string,
  ) {
    super(message);
  }
}

type TokenSource = () => Promise<string | null>;
let tokenSource: TokenSource = getIdToken;

/** Replaces where ID tokens come from (component tests use a fixed token). */
export function setTokenSource(source: TokenSource): void {
  tokenSource = source;
}

export interface RequestOptions {
  query?: Record<string, string | undefined>;
  body?: unknown;
  signal?: AbortSignal;
}

function isErrorAnswer(value: unknown): value is ErrorAnswer {
  return typeof value === 'object' && value !== null && typeof (value as ErrorAnswer).message === 'string';
}

/**
 * Calls one /api route with `Authorization: Bearer <Firebase ID token>`.
 *
 * @param route - the route's name in the shared ROUTES table; the answer's type is the route's in
 *   `RouteAnswers`, which the server's handlers are checked against too
 * @param options - query parameters, JSON body and abort signal
 * @returns the parsed JSON answer
 * @throws ApiError carrying the server's message, or a plain one when the server was not reached
 */
export async function apiRequest<R extends RouteName>(
  route: R,
  options: RequestOptions = {},
): Promise<RouteAnswers[R]> {
  const { method, path, auth } = ROUTES[route];
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) params.set(key, value);
  }
  const url = params.size > 0 ? `${path}?${params}` : path;

  const headers: Record<string, string> = { accept: 'application/json' };
  let token: string | null = null;
  try {
    token = await tokenSource();
  } catch (cause) {
    if (auth) throw new ApiError(`Could not get your sign-in token (${String(cause)}).`, 401, 'Unauthorized');
  }
  if (token) headers.authorization = `Bearer ${token}`;
  else if (auth) throw new ApiError('You are signed out. Please sign in again.', 401, 'Unauthorized');
  if (options.body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError('Could not reach the server. Check your connection and try again.', 0, 'NetworkError');
  }

  const text = await response.text();
  let json: unknown = undefined;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      if (response.ok)
        throw new ApiError('The server sent an answer that is not JSON.', response.status, 'BadAnswer');
    }
  }
  if (!response.ok) {
    if (isErrorAnswer(json))
      throw new ApiError(json.message, response.status, json.error || 'Error', json.receiptId);
    const reason = response.statusText ? ` ${response.statusText}` : '';
    throw new ApiError(`The server answered ${response.status}${reason}.`, response.status, 'HttpError');
  }
  return json as RouteAnswers[R];
}

/**
 * The words to show a person for any error thrown by a call. The server's messages are precise (and
 * kept so in its logs and for developers); the ones written for a developer are put in plain words:
 * a request the app built wrongly, an address cut short, a duplicate named by the server's file name.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    // The server names the earlier upload by its stored file name, which means nothing to a person.
    if (error.code === 'DuplicateImage') return error.message.replace(/ as "[^"]*"/, '');
    if (error.code === 'InvalidRequest' && error.message.startsWith('Invalid query'))
      return 'This address is incomplete or out of date (perhaps the link was cut short). Open the page again from Reports or the menu.';
    if (error.code === 'InvalidRequest' && error.message.startsWith('Invalid '))
      return 'Some of what was entered could not be accepted. Check the values and try again.';
    if (error.code === 'HttpError' && error.status >= 500)
      return 'Something went wrong on the server. Try again in a moment.';
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}

/** The receipt an upload duplicates, when the server refused it as one. */
export function duplicateOf(error: unknown): string | null {
  return error instanceof ApiError && error.code === 'DuplicateImage' ? (error.receiptId ?? null) : null;
}

/**
 * Calls a download route (e.g. the CSV export) with the ID token and returns the file as a blob with
 * the name the server gave it.
 * @throws ApiError carrying the server's message
 */
export async function apiDownload(
  route: RouteName,
  query: Record<string, string | undefined>,
): Promise<{ blob: Blob; fileName: string }> {
  const { method, path } = ROUTES[route];
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
  const token = await tokenSource().catch(() => null);
  if (!token) throw new ApiError('You are signed out. Please sign in again.', 401, 'Unauthorized');
  let response: Response;
  try {
    response = await fetch(`${path}?${params}`, { method, headers: { authorization: `Bearer ${token}` } });
  } catch {
    throw new ApiError('Could not reach the server. Check your connection and try again.', 0, 'NetworkError');
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    if (isErrorAnswer(body)) throw new ApiError(body.message, response.status, body.error || 'Error');
    throw new ApiError(`The server answered ${response.status}.`, response.status, 'HttpError');
  }
  const fileName =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv';
  return { blob: await response.blob(), fileName };
}
