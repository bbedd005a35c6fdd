import type { AppData, QueueEntry } from '@receipts/core';

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** Calls the app's /api over HTTP as the web app does, with a Firebase ID token. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string | null,
    readonly userId: string,
  ) {}

  /** The same client with another token (or none). */
  withToken(token: string | null): ApiClient {
    return new ApiClient(this.baseUrl, token, this.userId);
  }

  async call<T = unknown>(
    method: string,
    path: string,
    options: {
      query?: Record<string, string>;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<ApiAnswer<T>> {
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { ...options.headers };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  upload(fileName: string, imgSrc: string, userId = this.userId) {
    return this.call<{ fileName: string; status: string }>('POST', '/api/upload', {
      body: { userId, imgSrc, fileName },
    });
  }

  listQueue(userId = this.userId) {
    return this.call<QueueEntry[]>('GET', '/api/listQueue', { query: { userId } });
  }

  getAppData(userId = this.userId) {
    return this.call<AppData>('GET', '/api/getAppData', { query: { userId } });
  }

  getImage(blobName: string, userId = this.userId) {
    return this.call<string>('GET', '/api/getImage', { query: { userId, blobName } });
  }

  deleteReceipt(receiptId: string, blobName?: string, userId = this.userId) {
    return this.call('DELETE', '/api/deleteReceiptData', {
      query: { receiptId, userId, ...(blobName ? { blobName } : {}) },
    });
  }

  /** Polls listQueue until no scan is queued or analysing; returns the entries left (failed ones). */
  async waitForQueue(timeoutMs = 150_000): Promise<QueueEntry[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = await this.listQueue();
      if (answer.status !== 200)
        throw new Error(`listQueue answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      const pending = answer.body.filter((e) => e.status === 'false' || e.status === 'Analyzing');
      if (pending.length === 0) return answer.body;
      if (Date.now() > deadline) {
        throw new Error(`Scans still pending after ${timeoutMs} ms: ${JSON.stringify(pending)}`);
      }
      // Often enough that a test goes on soon after the worker is done; a listing is one query.
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export const jpegDataUrl = (bytes: Uint8Array) =>
  `data:image/jpeg;base64,${Buffer.from(bytes).toString('base64')}`;
