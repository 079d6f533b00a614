import { useCallback, useEffect, useState } from 'react';
import { parseHash, routeHash, type Route } from './hash';

export { parseHash, routeHash, type Route };

/** The route lives in the URL hash, so a reload comes back to the same place. */
export function useRoute(): [Route, (next: Route, opts?: { replace?: boolean }) => void] {
  const [route, setRoute] = useState<Route>(() => parseHash(window.location.hash));

  useEffect(() => {
    const onChange = () => setRoute(parseHash(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);

  const navigate = useCallback((next: Route, opts?: { replace?: boolean }) => {
    const hash = routeHash(next);
    if (window.location.hash !== hash) {
      if (opts?.replace) window.history.replaceState(null, '', hash);
      else window.history.pushState(null, '', hash);
    }
    setRoute(next);
  }, []);

  return [route, navigate];
}
