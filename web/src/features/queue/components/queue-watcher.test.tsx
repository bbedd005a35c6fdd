import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { makeAppData, makeQueueEntry } from '../../../testing/data';
import { fakeApi } from '../../../testing/fake-api';
import { renderApp, signedInState } from '../../../testing/render';

describe('queue polling', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('polls every 2000 ms while scans are pending, then flags a new report and reloads the data', async () => {
    let queue = [
      makeQueueEntry({ status: 'Analyzing' }),
      makeQueueEntry({ fileName: '1714550000009-receipt.jpg' }),
    ];
    const api = fakeApi({ 'GET /api/listQueue': () => queue, 'GET /api/getAppData': makeAppData() });
    renderApp('/', { state: signedInState() });

    const counter = await screen.findByRole('link', { name: '2 receipts in progress' });
    expect(counter).toHaveTextContent('2');
    expect(screen.getByRole('link', { name: 'Reports' })).toBeInTheDocument();
    const before = api.callsTo('GET', '/api/listQueue').length;

    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(api.callsTo('GET', '/api/listQueue').length).toBe(before + 1);

    queue = [queue[1]!];
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(await screen.findByRole('link', { name: '1 receipt in progress' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reports (new report ready)' })).toBeInTheDocument();
    const dataLoads = api.callsTo('GET', '/api/getAppData').length;
    expect(dataLoads).toBeGreaterThan(0);

    queue = [];
    await act(() => vi.advanceTimersByTimeAsync(2000));
    await vi.waitFor(() =>
      expect(screen.queryByRole('link', { name: /in progress/ })).not.toBeInTheDocument(),
    );
    const stopped = api.callsTo('GET', '/api/listQueue').length;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(api.callsTo('GET', '/api/listQueue').length).toBe(stopped);
  });

  it('does not flag a new report for what was already pending when the app opened', async () => {
    fakeApi({ 'GET /api/listQueue': [makeQueueEntry({ status: 'Failed', reason: 'Unreadable' })] });
    renderApp('/', { state: signedInState() });
    expect(await screen.findByRole('link', { name: '1 receipt in progress' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reports' })).toBeInTheDocument();
  });
});
