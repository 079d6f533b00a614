import { useEffect, useState, type ReactNode } from 'react';
import { ErrorNotice } from './ErrorNotice';
import type { Loadable } from './loadable';

/**
 * Draws a part that lives in a chunk of its own: at once when it is loaded, else the fallback
 * until it is (an ordinary state change, not a Suspense boundary, whose reveal React may hold back
 * for a while), or what went wrong with a retry.
 */
export function Part<M>({ part, fallback, children }: { part: Loadable<M>; fallback: ReactNode; children: (mod: M) => ReactNode }) {
  const mod = part.get();
  const [, setLoaded] = useState<M | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (mod) return;
    let live = true;
    part.load().then(
      (m) => live && setLoaded(() => m),
      (err: unknown) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [part, mod, attempt]);
  if (mod) return children(mod);
  if (error !== null) {
    return (
      <div className="main__center">
        <ErrorNotice
          error={error}
          testId="part-error"
          onRetry={() => {
            setError(null);
            setAttempt((n) => n + 1);
          }}
        />
      </div>
    );
  }
  return fallback;
}
