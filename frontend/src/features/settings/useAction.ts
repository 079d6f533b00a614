import { useCallback, useEffect, useRef, useState } from 'react';

export interface Action<A extends unknown[]> {
  /** Runs the call; resolves true when it succeeded, false when it failed (the error is kept). */
  run: (...args: A) => Promise<boolean>;
  pending: boolean;
  error: unknown;
  clearError: () => void;
}

/** One call's pending and error state, for a control that saves something. */
export function useAction<A extends unknown[]>(fn: (...args: A) => Promise<unknown>): Action<A> {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const fnRef = useRef(fn);
  const mounted = useRef(true);
  useEffect(() => {
    fnRef.current = fn;
  });
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(async (...args: A) => {
    setPending(true);
    setError(null);
    try {
      await fnRef.current(...args);
      return true;
    } catch (err) {
      if (mounted.current) setError(err);
      return false;
    } finally {
      if (mounted.current) setPending(false);
    }
  }, []);

  const clearError = useCallback(() => setError(null), []);
  return { run, pending, error, clearError };
}
