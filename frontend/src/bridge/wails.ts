import { BridgeError, errorFromWailsRejection, INTERNAL } from './errors';
import { splitMethod, type EventCallback, type Transport, type Unsubscribe } from './transport';

type BoundMethod = (req?: object) => Promise<unknown>;

/** The globals Wails injects into its window: bound structs of package `app`, and the runtime. */
export interface WailsGlobals {
  go?: { app?: Record<string, Record<string, BoundMethod> | undefined> };
  runtime?: {
    EventsOn(name: string, cb: (...data: unknown[]) => void): Unsubscribe | void;
    EventsOff?(name: string, ...additional: string[]): void;
  };
}

export function hasWailsBindings(win: WailsGlobals): boolean {
  return typeof win.go?.app === 'object' && win.go.app !== null;
}

export function createWailsTransport(win: WailsGlobals): Transport {
  return {
    name: 'wails',
    async call(method, req) {
      const [struct, fn] = splitMethod(method);
      const bound = win.go?.app?.[struct]?.[fn];
      if (typeof bound !== 'function') {
        throw new BridgeError(INTERNAL, `no binding for ${method}`, { method });
      }
      try {
        return await (req === undefined ? bound() : bound(req));
      } catch (reason) {
        throw errorFromWailsRejection(reason);
      }
    },
    onEvent(name: string, cb: EventCallback) {
      const runtime = win.runtime;
      if (!runtime) return () => {};
      const off = runtime.EventsOn(name, (data: unknown) => cb(data));
      return typeof off === 'function' ? off : () => runtime.EventsOff?.(name);
    },
    onReconnect() {
      // The Wails event bus lives in-process: it never drops.
      return () => {};
    },
  };
}
