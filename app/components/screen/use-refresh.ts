// With JavaScript: the page's loaders run again every `ms` while `active` and the tab is
// visible (and once when it becomes visible again), so figures and statuses update in place.
// The count starts again at each navigation, so a flash toast (gone at the next load) stays up.
// Without JavaScript every load is fresh anyway.
import { useLocation, useRevalidator } from '@remix-run/react';
import { useEffect, useRef } from 'react';

export function useRefreshEvery(ms: number, active = true): void {
  const { key } = useLocation();
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setInterval> | null = null;
    const refresh = () => {
      if (latest.current.state === 'idle') latest.current.revalidate();
    };
    const start = () => {
      if (timer === null && document.visibilityState === 'visible') timer = setInterval(refresh, ms);
    };
    const stop = () => {
      if (timer !== null) clearInterval(timer);
      timer = null;
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') {
        refresh();
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
  }, [active, ms, key]);
}
