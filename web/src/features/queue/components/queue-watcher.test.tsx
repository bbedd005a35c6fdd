import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { STALE_SCAN_MS } from '@receipts/core/contract/routes';
import { makeAppData, makeQueueEntry } from '../../../testing/data';
import { fakeApi } from '../../../testing/fake-api';
import { detailRoutes } from '../../../testing/fake-details';
import { renderApp, signedInState } from '../../../testing/render';
import { QUEUE_POLL } from './queue-watcher';

const STALE_MINUTES = STALE_SCAN_MS / 60_000;
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** Shows or hides the tab as a browser does: the visibility state, then the event. */
function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  window.dispatchEvent(new Event('visibilitychange'));
}

describe('queue polling', () => {
  beforeEach(() => {
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
  });
  afterEach(() => {
    setVisibility('visible');
    vi.useRealTimers();
  });

  it('polls every 2000 ms while scans are pending, then flags a new report and reloads the report pages', async () => {
    let queue = [
      makeQueueEntry({ status: 'Analyzing', updated_at: minutesAgo(0) }),
      makeQueueEntry({ fileName: '1714550000009-receipt.jpg', updated_at: minutesAgo(0) }),
    ];
    const api = fakeApi({ 'GET /api/listQueue': () => queue, ...detailRoutes(makeAppData()) });
    renderApp('/', { state: signedInState() });

    const counter = await screen.findByRole('link', { name: '2 receipts in progress' });
    expect(counter).toHaveTextContent('2');
    expect(screen.getByRole('link', { name: 'Reports' })).toBeInTheDocument();
    const before = api.callsTo('GET', '/api/listQueue').length;

    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(api.callsTo('GET', '/api/listQueue').length).toBe(before + 1);

    // The header's review count is a report page: a finished scan reads it (and any shown) again.
    const reportReads = api.callsTo('GET', '/api/report').length;
    expect(reportReads).toBeGreaterThan(0);
    queue = [queue[1]!];
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(await screen.findByRole('link', { name: '1 receipt in progress' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reports (new report ready)' })).toBeInTheDocument();
    // The person is told the analysis finished, with the way to the reports.
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('Receipt analysed');
    expect(within(notice).getByRole('link', { name: 'See it in Reports' })).toHaveAttribute(
      'href',
      '/Reports',
    );
    await vi.waitFor(() => expect(api.callsTo('GET', '/api/report').length).toBeGreaterThan(reportReads));
    expect(api.callsTo('GET', '/api/getAppData')).toEqual([]);

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
    fakeApi({ 'GET /api/listQueue': [makeQueueEntry({ status: 'Analyzing', updated_at: minutesAgo(0) })] });
    renderApp('/', { state: signedInState() });
    expect(await screen.findByRole('link', { name: '1 receipt in progress' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reports' })).toBeInTheDocument();
  });

  it('stops polling while only failed scans remain, and counts them apart from those in progress', async () => {
    const api = fakeApi({
      'GET /api/listQueue': [
        makeQueueEntry({ status: 'Failed', reason: 'Unreadable', updated_at: minutesAgo(1) }),
      ],
    });
    renderApp('/', { state: signedInState() });
    expect(await screen.findByRole('link', { name: '1 scan needs attention' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /in progress/ })).not.toBeInTheDocument();
    const reads = api.callsTo('GET', '/api/listQueue').length;
    await act(() => vi.advanceTimersByTimeAsync(5 * 60_000));
    expect(api.callsTo('GET', '/api/listQueue')).toHaveLength(reads);
  });

  it('reads a queue of only stuck scans once a minute, not every 2 seconds', async () => {
    const api = fakeApi({
      'GET /api/listQueue': [
        makeQueueEntry({ status: 'Analyzing', updated_at: minutesAgo(STALE_MINUTES + 5) }),
      ],
    });
    renderApp('/', { state: signedInState() });
    expect(await screen.findByRole('link', { name: '1 scan needs attention' })).toBeInTheDocument();
    const reads = api.callsTo('GET', '/api/listQueue').length;
    await act(() => vi.advanceTimersByTimeAsync(50_000));
    expect(api.callsTo('GET', '/api/listQueue')).toHaveLength(reads);
    await act(() => vi.advanceTimersByTimeAsync(QUEUE_POLL.stuck - 50_000));
    expect(api.callsTo('GET', '/api/listQueue')).toHaveLength(reads + 1);
  });

  it('backs off while scans only wait: 2, 4, 8 and 16 seconds between unchanged answers', async () => {
    const api = fakeApi({
      'GET /api/listQueue': [makeQueueEntry({ status: 'false', updated_at: minutesAgo(0) })],
    });
    renderApp('/', { state: signedInState() });
    expect(await screen.findByRole('link', { name: '1 receipt in progress' })).toBeInTheDocument();
    const reads = () => api.callsTo('GET', '/api/listQueue').length;
    const first = reads();
    for (const [step, delay] of [2000, 4000, 8000, 16_000, 16_000].entries()) {
      await act(() => vi.advanceTimersByTimeAsync(delay - 100));
      expect(reads(), `before read ${step + 1}`).toBe(first + step);
      await act(() => vi.advanceTimersByTimeAsync(100));
      expect(reads(), `read ${step + 1}`).toBe(first + step + 1);
    }
  });

  it('reads nothing while the tab is hidden, and reads at once when it is shown again', async () => {
    const api = fakeApi({
      'GET /api/listQueue': [makeQueueEntry({ status: 'Analyzing', updated_at: minutesAgo(0) })],
    });
    renderApp('/', { state: signedInState() });
    expect(await screen.findByRole('link', { name: '1 receipt in progress' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    const reads = api.callsTo('GET', '/api/listQueue').length;

    setVisibility('hidden');
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(api.callsTo('GET', '/api/listQueue')).toHaveLength(reads);

    setVisibility('visible');
    await vi.waitFor(() => expect(api.callsTo('GET', '/api/listQueue')).toHaveLength(reads + 1));
  });
});
