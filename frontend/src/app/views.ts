import { loadable } from '../ui/loadable';
import type { Route } from './hash';

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
 * Starts loading the view the address opens on, and resolves once the first screen can be drawn
 * whole. With no session yet, the new task's view is drawn with the list, in the first frame, and
 * its composer is what the first screen is for: it resolves once that view's code is loaded (or
 * failed, to be shown with a retry). A session's view is drawn after the list is painted: at once.
 */
export function firstScreenReady(route: Route, listEmpty?: boolean): Promise<unknown> {
  preloadRoute(route, listEmpty);
  const newTaskFirst = listEmpty === true && (route.page === 'home' || route.page === 'new');
  return newTaskFirst ? newTaskPart.load().catch(() => undefined) : Promise.resolve();
}

/**
 * Loads every view, so a click on any of them draws at once (after the first screen is painted);
 * resolves when each has loaded or failed (a failed one loads again when it is drawn).
 */
export function preloadViews(): Promise<void> {
  return Promise.all([sessionViewPart, newTaskPart, settingsPart].map((part) => part.load().catch(() => undefined))).then(() => undefined);
}
