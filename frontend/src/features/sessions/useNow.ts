import { useSyncExternalStore } from 'react';

/** How often relative times ("5 minutes ago") are brought up to date. */
export const TICK_MS = 30_000;

/**
 * One clock for the whole page: a single interval, running only while some element shows a
 * relative time. Each subscriber is a mounted time element, so a tick re-renders only the rows
 * on screen (the list is virtualized), never the list around them.
 */
function createClock(intervalMs: number) {
  let now = Date.now();
  let timer: number | undefined;
  const listeners = new Set<() => void>();
  const tick = () => {
    now = Date.now();
    for (const l of [...listeners]) l();
  };
  return {
    get: () => now,
    subscribe(listener: () => void) {
      if (listeners.size === 0) {
        now = Date.now();
        timer = window.setInterval(tick, intervalMs);
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) window.clearInterval(timer);
      };
    },
  };
}

const clock = createClock(TICK_MS);

/** The current time, refreshed every TICK_MS so relative times stay true. */
export function useNow(): number {
  return useSyncExternalStore(clock.subscribe, clock.get, clock.get);
}
