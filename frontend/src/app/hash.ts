// The route as the address's hash says it, without React: the page's first script reads it to
// know which view the first screen draws.

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
