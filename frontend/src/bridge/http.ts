import { BridgeError, errorFromHttpBody, TRANSPORT } from './errors';
import { splitMethod, type EventCallback, type Transport } from './transport';

/** The parts of the browser the HTTP transport uses; injectable for tests. */
export interface HttpDeps {
  fetch: typeof fetch;
  WebSocket: new (url: string) => WebSocket;
  location: Pick<Location, 'protocol' | 'host'>;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export const MIN_BACKOFF_MS = 500;
export const MAX_BACKOFF_MS = 10_000;

interface WireEvent {
  name: string;
  data: unknown;
}

const wireEvent = (msg: unknown): WireEvent | null =>
  typeof msg === 'object' && msg !== null && typeof (msg as WireEvent).name === 'string'
    ? { name: (msg as WireEvent).name, data: (msg as WireEvent).data ?? null }
    : null;

/**
 * The events of one frame: the server sends one event as an object, and the events that queued
 * up while it wrote the last frame as an array of them, in order.
 */
export function parseWireFrame(raw: unknown): WireEvent[] {
  if (typeof raw !== 'string') return [];
  let msg: unknown;
  try {
    msg = JSON.parse(raw);
  } catch {
    return []; // ignore malformed frames
  }
  const all = Array.isArray(msg) ? msg.map(wireEvent) : [wireEvent(msg)];
  return all.filter((e): e is WireEvent => e !== null);
}

/**
 * Requests go to `POST /api/<Struct>.<Method>`; broadcast events arrive on one WebSocket at `/ws`,
 * which reconnects with exponential backoff while anyone listens. Auth is the session cookie.
 */
export function createHttpTransport(deps: HttpDeps): Transport {
  const listeners = new Map<string, Set<EventCallback>>();
  const reconnectListeners = new Set<() => void>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  let connected: boolean | null = null;
  const setConnected = (up: boolean) => {
    if (connected === up) return;
    connected = up;
    for (const cb of [...connectionListeners]) cb(up);
  };
  let socket: WebSocket | null = null;
  let retryTimer: unknown = null;
  let backoff = MIN_BACKOFF_MS;
  let everOpened = false;

  const listenerCount = () => {
    let n = 0;
    for (const set of listeners.values()) n += set.size;
    return n;
  };

  const wsUrl = () => `${deps.location.protocol === 'https:' ? 'wss' : 'ws'}://${deps.location.host}/ws`;

  function connect() {
    retryTimer = null;
    let ws: WebSocket;
    try {
      ws = new deps.WebSocket(wsUrl());
    } catch {
      scheduleReconnect();
      return;
    }
    socket = ws;
    ws.onopen = () => {
      backoff = MIN_BACKOFF_MS;
      setConnected(true);
      if (everOpened) for (const cb of [...reconnectListeners]) cb();
      everOpened = true;
    };
    ws.onmessage = (ev: MessageEvent) => {
      for (const msg of parseWireFrame(ev.data)) for (const cb of [...(listeners.get(msg.name) ?? [])]) cb(msg.data);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      if (listenerCount() > 0) setConnected(false);
      scheduleReconnect();
    };
    ws.onerror = () => {
      // onclose follows and schedules the retry
    };
  }

  function scheduleReconnect() {
    if (retryTimer !== null || listenerCount() === 0) return;
    const delay = backoff;
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    retryTimer = deps.setTimeout(connect, delay);
  }

  function ensureSocket() {
    if (socket === null && retryTimer === null) connect();
  }

  function maybeDisconnect() {
    if (listenerCount() > 0) return;
    if (retryTimer !== null) {
      deps.clearTimeout(retryTimer);
      retryTimer = null;
    }
    const ws = socket;
    socket = null;
    ws?.close();
  }

  return {
    name: 'http',
    async call(method, req) {
      splitMethod(method);
      let res: Response;
      try {
        res = await deps.fetch(`/api/${method}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(req ?? {}),
        });
      } catch (err) {
        throw new BridgeError(TRANSPORT, err instanceof Error ? err.message : String(err));
      }
      let text: string;
      try {
        text = await res.text();
      } catch (err) {
        throw new BridgeError(TRANSPORT, err instanceof Error ? err.message : String(err));
      }
      if (!res.ok) throw errorFromHttpBody(res.status, res.statusText, text);
      if (text.trim() === '') return null;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new BridgeError(TRANSPORT, `invalid JSON from ${method}`, { method });
      }
    },
    onEvent(name, cb) {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(cb);
      ensureSocket();
      return () => {
        set.delete(cb);
        if (set.size === 0) listeners.delete(name);
        maybeDisconnect();
      };
    },
    onReconnect(cb) {
      reconnectListeners.add(cb);
      return () => reconnectListeners.delete(cb);
    },
    onConnection(cb) {
      connectionListeners.add(cb);
      return () => connectionListeners.delete(cb);
    },
  };
}

export function browserHttpDeps(): HttpDeps {
  return {
    fetch: (input, init) => window.fetch(input, init),
    WebSocket: window.WebSocket,
    location: window.location,
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
  };
}
