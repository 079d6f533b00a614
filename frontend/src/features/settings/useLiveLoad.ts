import { useCallback, useEffect, useState } from 'react';
import type { Unsubscribe } from '../../bridge';

export type LiveState<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; error: unknown };

/**
 * A value the Settings page loads and keeps current: loaded on mount, loaded again quietly on each
 * of the events `subscribe` listens to (a quiet load that fails keeps what is shown), and again
 * with its spinner by `reload`, quietly by `refresh`. `set` puts a value a call answered with in place. Both `fetch` and
 * `subscribe` must keep their identity across renders (useCallback over the API).
 */
export function useLiveLoad<T>(
  fetch: () => Promise<T>,
  subscribe: (reload: () => void) => Unsubscribe[],
): { state: LiveState<T>; reload: () => void; refresh: () => void; set: (value: T) => void } {
  const [state, setState] = useState<LiveState<T>>({ status: 'loading' });

  const load = useCallback(
    (quiet: boolean) => {
      if (!quiet) setState({ status: 'loading' });
      fetch().then(
        (value) => setState({ status: 'ready', value }),
        (error: unknown) => setState((s) => (quiet && s.status === 'ready' ? s : { status: 'error', error })),
      );
    },
    [fetch],
  );

  useEffect(() => {
    load(false);
    const offs = subscribe(() => load(true));
    return () => offs.forEach((off) => off());
  }, [load, subscribe]);

  return {
    state,
    reload: useCallback(() => load(false), [load]),
    refresh: useCallback(() => load(true), [load]),
    set: useCallback((value: T) => setState({ status: 'ready', value }), []),
  };
}
