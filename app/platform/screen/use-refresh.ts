// Work repeated while the tab is visible: every `ms` (and once when the tab becomes visible
// again), stopped while it is hidden. `useRefreshEvery` runs the page's loaders again that way,
// so figures and statuses update in place; the count starts again at each navigation, so a flash
// toast (gone at the next load) stays up. Without JavaScript every load is fresh anyway.
import { useLocation, useRevalidator } from '@remix-run/react';
import { useEffect, useRef } from 'react';

/** Calls `tick` every `ms` while `active` and the tab is visible. `restartKey` restarts the count. */
export function useEveryWhileVisible(tick: () => void, ms: number, active = true, restartKey: unknown = null): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setInterval> | null = null;
    const start = () => {
      if (timer === null && document.visibilityState === 'visible') timer = setInterval(() => latest.current(), ms);
    };
    const stop = () => {
      if (timer !== null) clearInterval(timer);
      timer = null;
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') {
        latest.current();
        start();
      } else {
        stop();
      }
    };
    start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [active, ms, restartKey]);
}

export function useRefreshEvery(ms: number, active = true): void {
  const { key } = useLocation();
  const revalidator = useRevalidator();
  useEveryWhileVisible(
    () => {
      if (revalidator.state === 'idle') revalidator.revalidate();
    },
    ms,
    active,
    key,
  );
}
