import type { Events, Methods } from './generated';
import type { Transport, Unsubscribe } from './transport';

/** What method M takes: void for a method without a request. */
export type Req<M extends keyof Methods> = Methods[M]['req'];
/** What method M answers: void for a method that only succeeds or fails. */
export type Res<M extends keyof Methods> = Methods[M]['res'];

/**
 * The one place where a value from the wire gets its type, with nothing checked at run time.
 * It is sound as far as the Go side is: the transport hands back exactly the JSON that the Go
 * method or event named by `name` produced (the Wails binding and POST /api/Struct.Method call
 * the same facade method; events arrive as the bus published them), and Methods and Events are
 * generated from those Go types, with null wherever encoding/json can write null. The generator's
 * test fails while generated.ts differs from the Go side, so the two cannot drift apart silently.
 */
function fromGo<K extends keyof Arrives>(_name: K, value: unknown): Arrives[K] {
  return value as Arrives[K];
}

/** What arrives under each name: a method's result, or an event's payload (the names never overlap). */
type Arrives = { [M in keyof Methods]: Res<M> } & Events;

/**
 * The typed helpers every API facade (createApi, createSettingsApi) is built on. The transport is
 * looked up on each use, not captured, so tests can swap it after the API was made.
 */
export function typedTransport(getTransport: () => Transport) {
  return {
    /**
     * Calls "Struct.Method" with its request (none for a method that takes none); the answer has
     * the Go method's result type.
     */
    call: <M extends keyof Methods>(method: M, ...req: Req<M> extends void ? [] : [Req<M>]): Promise<Res<M>> =>
      getTransport()
        .call(method, req[0])
        .then((v) => fromGo(method, v)),
    /** `on('name')` is a subscribe function for that event, its payload typed as Go publishes it. */
    on:
      <E extends keyof Events>(name: E) =>
      (cb: (data: Events[E]) => void): Unsubscribe =>
        getTransport().onEvent(name, (data) => cb(fromGo(name, data))),
    /** Fires after the event stream recovered from a drop: refetch what may have been missed. */
    onReconnect: (cb: () => void): Unsubscribe => getTransport().onReconnect(cb),
    /** Fires when the event stream drops (false) and when it is back (true). */
    onConnection: (cb: (connected: boolean) => void): Unsubscribe => getTransport().onConnection?.(cb) ?? (() => {}),
  };
}
