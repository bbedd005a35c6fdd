import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

/** The window's inner width, updated on resize (for the 900 and 1200 breakpoints of spec §9). */
export function useWindowWidth(): number {
  return useSyncExternalStore(
    subscribe,
    () => window.innerWidth,
    () => 1024,
  );
}

/** Breakpoints of spec §9: some columns show only when the window is wider than these. */
export const BREAKPOINTS = { medium: 900, wide: 1200 } as const;
