import { useCallback, useEffect, useState } from 'react';

/** Where the shell is: a session, a new task (its composer, before the session exists), the settings page, or the default. */
export type Route = { page: 'session'; id: string } | { page: 'new' } | { page: 'settings' } | { page: 'home' };

export function parseHash(hash: string): Route {
  const path = hash.replace(/^#/, '');
  if (path === '/settings') return { page: 'settings' };
  if (path === '/new') return { page: 'new' };
  const m = /^\/session\/(.+)$/.exec(path);
  if (m?.[1]) return { page: 'session', id: decodeURIComponent(m[1]) };
  return { page: 'home' };
}

export function routeHash(route: Route): string {
  switch (route.page) {
    case 'settings':
      return '#/settings';
    case 'new':
      return '#/new';
    case 'session':
      return `#/session/${encodeURIComponent(route.id)}`;
    default:
      return '#/';
  }
}

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
