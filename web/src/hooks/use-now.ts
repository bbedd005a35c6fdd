import { useEffect, useState } from 'react';

/** The current time in ms, refreshed every `everyMs` (for what depends on age, such as stuck scans). */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
