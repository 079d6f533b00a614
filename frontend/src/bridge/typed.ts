import type { Transport, Unsubscribe } from './transport';

/**
 * The typed helpers every API facade (createApi, createSettingsApi) is built on. The transport is
 * looked up on each use, not captured, so tests can swap it after the API was made.
 */
export function typedTransport(getTransport: () => Transport) {
  return {
    call: <T>(method: string, req?: object) => getTransport().call(method, req) as Promise<T>,
    /** `on<T>('name')` is a subscribe function for that event, its payload typed as T. */
    on:
      <T>(name: string) =>
      (cb: (data: T) => void): Unsubscribe =>
        getTransport().onEvent(name, (data) => cb(data as T)),
    /** Fires after the event stream recovered from a drop: refetch what may have been missed. */
    onReconnect: (cb: () => void): Unsubscribe => getTransport().onReconnect(cb),
    /** Fires when the event stream drops (false) and when it is back (true). */
    onConnection: (cb: (connected: boolean) => void): Unsubscribe => getTransport().onConnection?.(cb) ?? (() => {}),
  };
}
