import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { ListQueueAnswer, RetryScanAnswer, StorageRecord } from '@receipts/core/contract/requests';
import { fakeApi } from '../testing/fake-api';
import { ApiError, apiRequest, setTokenSource } from './api-client';
import { getIdToken } from './firebase';

describe('apiRequest', () => {
  afterEach(() => setTokenSource(getIdToken));

  it('sends the bearer token, the query and a JSON body', async () => {
    setTokenSource(async () => 'id-token-123');
    const api = fakeApi({ 'POST /api/retryScan': { ok: true } });
    await apiRequest('retryScan', { body: { userId: 'u1', fileName: 'a.jpg' } });
    await apiRequest('listQueue', { query: { userId: 'u1', skip: undefined } }).catch(() => undefined);
    expect(api.calls[0]).toMatchObject({
      method: 'POST',
      path: '/api/retryScan',
      authorization: 'Bearer id-token-123',
      body: { userId: 'u1', fileName: 'a.jpg' },
    });
    expect(api.calls[1]?.query).toEqual({ userId: 'u1' });
  });

  it("throws the server's message and status", async () => {
    setTokenSource(async () => 'id-token-123');
    fakeApi({
      'GET /api/getAppData': { status: 403, body: { error: 'Forbidden', message: 'Not your data.' } },
    });
    const failure = await apiRequest('getAppData', { query: { userId: 'someone-else' } }).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ message: 'Not your data.', status: 403, code: 'Forbidden' });
  });

  it('refuses to call a protected route without a token, and says to sign in', async () => {
    setTokenSource(async () => null);
    const api = fakeApi({});
    await expect(apiRequest('getAppData', { query: { userId: 'u' } })).rejects.toThrow(
      'You are signed out. Please sign in again.',
    );
    expect(api.calls).toHaveLength(0);
  });

  it('describes answers without an error body', async () => {
    setTokenSource(async () => 't');
    fakeApi({ 'GET /api/listQueue': { status: 502 } });
    await expect(apiRequest('listQueue')).rejects.toThrow('The server answered 502.');
  });

  it('answers with the type the route table gives the route, so a call site reading the wrong shape does not compile', async () => {
    setTokenSource(async () => 'id-token-123');
    fakeApi({ 'GET /api/storage/tables': { tables: ['Receipts', 'Users'] } });
    const answer = await apiRequest('storageListTables');
    // Checked by `npm run typecheck`: the answer type comes from the route name, not the caller.
    expectTypeOf(answer).toEqualTypeOf<{ tables: string[] }>();
    type Answer<R extends Parameters<typeof apiRequest>[0]> = Awaited<ReturnType<typeof apiRequest<R>>>;
    expectTypeOf<Answer<'listQueue'>>().toEqualTypeOf<ListQueueAnswer>();
    expectTypeOf<Answer<'retryScan'>>().toEqualTypeOf<RetryScanAnswer>();
    expectTypeOf<Answer<'storageCreateRecord'>>().toEqualTypeOf<StorageRecord>();
    // @ts-expect-error -- not a route of the table
    expectTypeOf<Answer<'listTables'>>().toBeObject();
    expect(answer.tables).toEqual(['Receipts', 'Users']);
  });
});
