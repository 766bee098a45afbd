import { useEffect, useState } from 'react';

/** Whole seconds until `retryAt` (ms since the epoch), ticking down; 0 when there is none. */
export function useSecondsUntil(retryAt: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (retryAt === null) return;
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [retryAt]);
  return retryAt === null ? 0 : Math.max(0, Math.ceil((retryAt - now) / 1000));
}
