import { BridgeError, TRANSPORT } from '../bridge/errors';

/**
 * A part of the app bundled as a chunk of its own (a view the first screen may not need): loaded
 * once, when first needed or ahead of that, and then at hand synchronously.
 */
export interface Loadable<M> {
  /** The module, once loaded. */
  get(): M | undefined;
  /** Loads it (once; again after a failure). A chunk that cannot be fetched fails as TRANSPORT. */
  load(): Promise<M>;
}

export function loadable<M>(importer: () => Promise<M>): Loadable<M> {
  let mod: M | undefined;
  let loading: Promise<M> | null = null;
  return {
    get: () => mod,
    load() {
      loading ??= importer().then(
        (m) => (mod = m),
        (err: unknown) => {
          loading = null;
          throw new BridgeError(TRANSPORT, err instanceof Error ? err.message : String(err));
        },
      );
      return loading;
    },
  };
}
