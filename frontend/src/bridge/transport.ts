export type EventCallback = (data: unknown) => void;
export type Unsubscribe = () => void;

/** What every transport offers; `method` is "Struct.Method". */
export interface Transport {
  readonly name: 'wails' | 'http';
  call(method: string, req?: unknown): Promise<unknown>;
  onEvent(name: string, cb: EventCallback): Unsubscribe;
  /** Called after the event stream came back from a drop (events may have been missed meanwhile). */
  onReconnect(cb: () => void): Unsubscribe;
  /** Called whenever the event stream goes down (false) or comes up (true); optional: the window's never drops. */
  onConnection?(cb: (connected: boolean) => void): Unsubscribe;
}

/** Splits "Struct.Method"; throws on anything else. */
export function splitMethod(method: string): [string, string] {
  const parts = method.split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1]) {
    throw new Error(`bridge: method must be "Struct.Method", got "${method}"`);
  }
  return [parts[0], parts[1]];
}
