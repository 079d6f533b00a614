import { BridgeError } from '../bridge/errors';
import type { EventCallback, Transport } from '../bridge/transport';

export type FakeRequest = Record<string, unknown>;

/**
 * The plumbing every in-memory stand-in for the Go app API shares: it records each call, fails the
 * next call of a method on demand (`failNext`), answers System.Info, rejects unknown methods like
 * the server does, and broadcasts events (`emit` plays one from "another client"). Subclasses
 * answer their facades' methods in `handle` and pass the rest to `super.handle`.
 */
export abstract class FakeTransportBase implements Transport {
  readonly name = 'http' as const;
  /** What System.Info reports the app runs in. */
  transport: 'desktop' | 'browser' = 'browser';
  calls: { method: string; req: unknown }[] = [];
  failNext: Record<string, BridgeError> = {};
  private listeners = new Map<string, Set<EventCallback>>();

  called(method: string) {
    return this.calls.filter((c) => c.method === method);
  }

  emit(name: string, data: unknown) {
    for (const cb of [...(this.listeners.get(name) ?? [])]) cb(data);
  }

  async call(method: string, req?: object): Promise<unknown> {
    this.calls.push({ method, req });
    const fail = this.failNext[method];
    if (fail) {
      delete this.failNext[method];
      throw fail;
    }
    return this.handle(method, (req ?? {}) as FakeRequest);
  }

  protected handle(method: string, _req: FakeRequest): unknown {
    if (method === 'System.Info') {
      return { version: '0.1.0-test', dataDir: '/tmp/agentdesk', defaultWorkspace: '/home/ada/project', transport: this.transport };
    }
    throw new BridgeError('UNKNOWN_METHOD', `The app has no action named “${method}”.`, { Method: method });
  }

  onEvent(name: string, cb: EventCallback) {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(cb);
    return () => set.delete(cb);
  }

  onReconnect() {
    return () => {};
  }
}
