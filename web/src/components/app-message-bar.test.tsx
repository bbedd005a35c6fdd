import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { AppMessage } from '../stores/app-state';
import { AppMessageBar, MESSAGE_CLOSE_MS } from './app-message-bar';

function renderBar(message: AppMessage) {
  const onDismiss = vi.fn();
  render(
    <MemoryRouter>
      <p>The last line of the page</p>
      <AppMessageBar message={message} onDismiss={onDismiss} />
    </MemoryRouter>,
  );
  return onDismiss;
}

describe('AppMessageBar', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('closes good news by itself after a few seconds', () => {
    const onDismiss = renderBar({ intent: 'success', title: 'Receipt uploaded — analysing' });
    expect(screen.getByRole('status')).toHaveTextContent('Receipt uploaded — analysing');
    act(() => vi.advanceTimersByTime(MESSAGE_CLOSE_MS - 1));
    expect(onDismiss).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });

  it('keeps a warning until the person dismisses it, and offers its link', () => {
    const onDismiss = renderBar({
      intent: 'warning',
      title: 'Kept on this device',
      link: { to: '/ReceiptImages', label: 'See it waiting' },
    });
    act(() => vi.advanceTimersByTime(MESSAGE_CLOSE_MS * 3));
    expect(onDismiss).not.toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'See it waiting' })).toHaveAttribute('href', '/ReceiptImages');
  });
});
