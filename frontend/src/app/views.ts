import { loadable } from '../ui/loadable';
import type { Route } from './route';

// The main area's views, each a chunk of its own: the first screen draws the session list
// without waiting for the code of a transcript, a composer, the settings or the onboarding.
export const sessionViewPart = loadable(() => import('../features/sessions/SessionView'));
export const newTaskPart = loadable(() => import('./newTaskPart'));
export const settingsPart = loadable(() => import('../features/settings/SettingsPage'));

/**
 * Starts loading the view an address opens on: a session, unless it names another page; home
 * shows the newest session, or the new task when the list (known already when the page came
 * with it) is empty.
 */
export function preloadRoute(route: Route, listEmpty?: boolean): void {
  const home = listEmpty === undefined ? [sessionViewPart, newTaskPart] : listEmpty ? [newTaskPart] : [sessionViewPart];
  const parts = route.page === 'settings' ? [settingsPart] : route.page === 'new' ? [newTaskPart] : route.page === 'home' ? home : [sessionViewPart];
  for (const part of parts) void part.load().catch(() => undefined);
}

/**
 * Loads every view, so a click on any of them draws at once (after the first screen is painted);
 * resolves when each has loaded or failed (a failed one loads again when it is drawn).
 */
export function preloadViews(): Promise<void> {
  return Promise.all([sessionViewPart, newTaskPart, settingsPart].map((part) => part.load().catch(() => undefined))).then(() => undefined);
}
