import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { fakeApi } from '../testing/fake-api';
import { renderApp, signedInState } from '../testing/render';
import { ReceiptThumbnail } from './receipt-thumbnail';

/** An IntersectionObserver the test moves: `show()` brings every observed element on screen. */
function stubObserver() {
  const observers: { callback: IntersectionObserverCallback; elements: Element[] }[] = [];
  class Observer {
    private readonly entry: { callback: IntersectionObserverCallback; elements: Element[] };
    constructor(callback: IntersectionObserverCallback) {
      this.entry = { callback, elements: [] };
      observers.push(this.entry);
    }
    observe(element: Element) {
      this.entry.elements.push(element);
    }
    disconnect() {
      this.entry.elements = [];
    }
  }
  vi.stubGlobal('IntersectionObserver', Observer);
  return {
    show: () =>
      act(() => {
        for (const { callback, elements } of observers) {
          const entries = elements.map((target) => ({ target, isIntersecting: true }));
          if (entries.length > 0)
            callback(entries as unknown as IntersectionObserverEntry[], {} as IntersectionObserver);
        }
      }),
  };
}

describe('ReceiptThumbnail', () => {
  it("asks for the person's own image only once the row nears the screen, and shows it lazily", async () => {
    const observer = stubObserver();
    const api = fakeApi({ 'GET /api/getImage': 'data:image/jpeg;base64,AAAA' });
    renderApp('/', {
      state: signedInState(),
      routes: [
        { path: '/', element: <ReceiptThumbnail documentUrl="users/user-1/1710000000001-receipt.jpg" /> },
      ],
    });
    const box = await screen.findByTestId('receipt-thumbnail');
    expect(api.callsTo('GET', '/api/getImage')).toHaveLength(0);
    expect(box.querySelector('img')).toBeNull();

    await observer.show();
    await waitFor(() => expect(box.querySelector('img')).not.toBeNull());
    const image = box.querySelector('img')!;
    expect(image).toHaveAttribute('src', 'data:image/jpeg;base64,AAAA');
    expect(image).toHaveAttribute('loading', 'lazy');
    // Decoration beside the row's link: no text of its own for a screen reader to repeat.
    expect(image).toHaveAttribute('alt', '');
    expect(api.callsTo('GET', '/api/getImage')).toEqual([
      expect.objectContaining({
        query: { userId: 'user-1', blobName: '1710000000001-receipt.jpg', preview: '1' },
        authorization: 'Bearer test-token',
      }),
    ]);
  });

  it('stays an empty box when the image cannot be had', async () => {
    const observer = stubObserver();
    const api = fakeApi({
      'GET /api/getImage': {
        status: 404,
        body: { error: 'ImageNotFound', message: 'There is no receipt image.' },
      },
    });
    renderApp('/', {
      state: signedInState(),
      routes: [{ path: '/', element: <ReceiptThumbnail documentUrl="users/user-1/gone-receipt.jpg" /> }],
    });
    const box = await screen.findByTestId('receipt-thumbnail');
    await observer.show();
    await waitFor(() => expect(api.callsTo('GET', '/api/getImage')).toHaveLength(1));
    expect(box.querySelector('img')).toBeNull();
  });
});
