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

/** A read the window answered before the page asked (app/firstreads.go). */
export interface FirstRead {
  method: string;
  req: unknown;
  result: unknown;
}

/** How long after the page started an answer given with the page still counts as current. */
const FIRST_READS_MS = 5000;

/** The bound methods that only read (the rest may write). */
const READ = /^(Get|List|Info|Recent|Pending|Rules|Page|Describe|Status)/;

const keyOf = (method: string, req: unknown) => {
  const sorted = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]))
      : v;
  return `${method} ${JSON.stringify(sorted(req ?? null))}`;
};

/**
 * The first screen's reads, answered with the page: each is taken instead of a round trip until
 * the page writes anything (any call that is not one of them) or FIRST_READS_MS have passed.
 */
function firstReads(win: WailsGlobals & { __agentdeskFirst?: FirstRead[] }) {
  const answers = new Map<string, unknown>();
  for (const r of win.__agentdeskFirst ?? []) answers.set(keyOf(r.method, r.req), r.result);
  delete win.__agentdeskFirst;
  return (method: string, req: unknown): { hit: boolean; result?: unknown } => {
    if (answers.size === 0) return { hit: false };
    const key = keyOf(method, req);
    if (!answers.has(key) || performance.now() > FIRST_READS_MS) {
      // Another read leaves them be; anything else may change what they say.
      if (performance.now() > FIRST_READS_MS || !READ.test(splitMethod(method)[1])) answers.clear();
      return { hit: false };
    }
    return { hit: true, result: structuredClone(answers.get(key)) };
  };
}

export function createWailsTransport(win: WailsGlobals): Transport {
  const answered = firstReads(win);
  const onEvent = (name: string, cb: EventCallback): Unsubscribe => {
    const runtime = win.runtime;
    if (!runtime) return () => {};
    const off = runtime.EventsOn(name, (data: unknown) => cb(data));
    return typeof off === 'function' ? off : () => runtime.EventsOff?.(name);
  };
  return {
    name: 'wails',
    async call(method, req) {
      const first = answered(method, req);
      if (first.hit) return first.result;
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
