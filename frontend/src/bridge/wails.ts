import { BridgeError, errorFromWailsRejection, INTERNAL } from './errors';
import { splitMethod, type EventCallback, type Transport, type Unsubscribe } from './transport';

type BoundMethod = (req?: unknown) => Promise<unknown>;

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

/** The window fell behind its events and was resubscribed: what it shows must be reloaded. */
export const OVERFLOW_EVENT = 'bus.overflow';

export function createWailsTransport(win: WailsGlobals): Transport {
  const onEvent = (name: string, cb: EventCallback): Unsubscribe => {
    const runtime = win.runtime;
    if (!runtime) return () => {};
    const off = runtime.EventsOn(name, (data: unknown) => cb(data));
    return typeof off === 'function' ? off : () => runtime.EventsOff?.(name);
  };
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
    onEvent,
    onReconnect(cb) {
      // The backend's bus disconnects a window too slow for its events, subscribes it afresh
      // and says so: like a WebSocket reconnect, what the page shows is reloaded.
      return onEvent(OVERFLOW_EVENT, () => cb());
    },
  };
}
