import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AppStateProvider, useAppActions, useAppState } from './app-state';

function useBoth() {
  return { state: useAppState(), actions: useAppActions() };
}

const wrapper = ({ children }: { children: ReactNode }) => <AppStateProvider>{children}</AppStateProvider>;

describe('app state', () => {
  it("does not show the previous person's message to the next one who signs in", () => {
    const { result } = renderHook(useBoth, { wrapper });
    act(() => result.current.actions.signIn({ userId: 'ann', userEmail: 'ann@example.com', userName: null }));
    act(() => result.current.actions.signOut());
    act(() => result.current.actions.showMessage({ intent: 'success', title: 'Your account was deleted.' }));
    expect(result.current.state.message?.title).toBe('Your account was deleted.');

    act(() => result.current.actions.signIn({ userId: 'bob', userEmail: 'bob@example.com', userName: null }));
    expect(result.current.state.message).toBeNull();
  });

  it('keeps the message when the same person is signed in again (a session check)', () => {
    const { result } = renderHook(useBoth, { wrapper });
    act(() => result.current.actions.signIn({ userId: 'ann', userEmail: 'ann@example.com', userName: null }));
    act(() =>
      result.current.actions.showMessage({ intent: 'success', title: 'Receipt uploaded — analysing' }),
    );
    act(() =>
      result.current.actions.signIn({ userId: 'ann', userEmail: 'ann@example.com', userName: 'Ann' }),
    );
    expect(result.current.state.message?.title).toBe('Receipt uploaded — analysing');
  });
});
