import { describe, expect, it, vi } from 'vitest';
import { BridgeError } from './errors';
import { createWailsTransport, type WailsGlobals } from './wails';

function rejecting(reason: unknown): WailsGlobals {
  return { go: { app: { Sessions: { Rename: vi.fn().mockRejectedValue(reason) } } } };
}

async function failure(win: WailsGlobals): Promise<BridgeError> {
  const err = await createWailsTransport(win).call('Sessions.Rename', { id: 'a', title: '' }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(BridgeError);
  return err as BridgeError;
}

describe('Wails transport', () => {
  it("answers the first screen's reads from the page until the page writes", async () => {
    const List = vi.fn().mockResolvedValue({ sessions: [], next: 'live' });
    const Get = vi.fn().mockResolvedValue({ language: 'zh-CN' });
    const Rename = vi.fn().mockResolvedValue({});
    const win = {
      go: { app: { Sessions: { List, Rename }, Settings: { Get } } },
      __agentdeskFirst: [
        { method: 'Sessions.List', req: {}, result: { sessions: [], next: 'first' } },
        { method: 'Settings.Get', req: null, result: { language: 'en' } },
      ],
    };
    const t = createWailsTransport(win);
    expect(win.__agentdeskFirst).toBeUndefined();
    await expect(t.call('Sessions.List', {})).resolves.toEqual({ sessions: [], next: 'first' });
    await expect(t.call('Settings.Get')).resolves.toEqual({ language: 'en' });
    await expect(t.call('Settings.Get')).resolves.toEqual({ language: 'en' });
    // Another page of the list is not among them: it is asked for, and the answers stay.
    await t.call('Sessions.List', { after: 'x' });
    expect(List).toHaveBeenCalledWith({ after: 'x' });
    await expect(t.call('Settings.Get')).resolves.toEqual({ language: 'en' });
    expect(Get).not.toHaveBeenCalled();
    // A write: from then on every read is asked for.
    await t.call('Sessions.Rename', { id: 'a', title: 'B' });
    await expect(t.call('Settings.Get')).resolves.toEqual({ language: 'zh-CN' });
    await expect(t.call('Sessions.List', {})).resolves.toEqual({ sessions: [], next: 'live' });
  });

  it('calls window.go.app[Struct][Method] with the request', async () => {
    const Rename = vi.fn().mockResolvedValue({ id: 'a', title: 'B' });
    const t = createWailsTransport({ go: { app: { Sessions: { Rename } } } });
    await expect(t.call('Sessions.Rename', { id: 'a', title: 'B' })).resolves.toEqual({ id: 'a', title: 'B' });
    expect(Rename).toHaveBeenCalledWith({ id: 'a', title: 'B' });
  });

  it('maps a JSON rejection string to a typed error', async () => {
    const err = await failure(
      rejecting(JSON.stringify({ kind: 'INVALID_INPUT', message: 'The title must not be empty.', args: { Field: 'title' } })),
    );
    expect(err.kind).toBe('INVALID_INPUT');
    expect(err.message).toBe('The title must not be empty.');
    expect(err.args).toEqual({ Field: 'title' });
  });

  it('maps a plain string rejection to INTERNAL with that message', async () => {
    const err = await failure(rejecting('database is locked'));
    expect(err.kind).toBe('INTERNAL');
    expect(err.message).toBe('database is locked');
    expect(err.args).toEqual({});
  });

  it('maps JSON without a kind to INTERNAL with the raw text', async () => {
    const err = await failure(rejecting('{"oops":true}'));
    expect(err.kind).toBe('INTERNAL');
    expect(err.message).toBe('{"oops":true}');
  });

  it('maps an Error rejection to INTERNAL', async () => {
    const err = await failure(rejecting(new Error('boom')));
    expect(err.kind).toBe('INTERNAL');
    expect(err.message).toBe('boom');
  });

  it('reports a missing binding as a typed error', async () => {
    const err = await createWailsTransport({ go: { app: {} } }).call('Nope.Nothing').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BridgeError);
    expect((err as BridgeError).kind).toBe('INTERNAL');
  });

  it('subscribes through runtime.EventsOn and unsubscribes with what it returns', () => {
    const off = vi.fn();
    let handler: ((...data: unknown[]) => void) | undefined;
    const EventsOn = vi.fn((_name: string, cb: (...data: unknown[]) => void) => {
      handler = cb;
      return off;
    });
    const t = createWailsTransport({ go: { app: {} }, runtime: { EventsOn } });
    const seen: unknown[] = [];
    const unsubscribe = t.onEvent('sessions.changed', (d) => seen.push(d));
    expect(EventsOn).toHaveBeenCalledWith('sessions.changed', expect.any(Function));
    handler?.([{ id: 'a' }]);
    expect(seen).toEqual([[{ id: 'a' }]]);
    unsubscribe();
    expect(off).toHaveBeenCalled();
  });

  it('reports a resubscription after the window fell behind as a reconnect', () => {
    const handlers = new Map<string, (...data: unknown[]) => void>();
    const EventsOn = vi.fn((name: string, cb: (...data: unknown[]) => void) => {
      handlers.set(name, cb);
      return () => handlers.delete(name);
    });
    const t = createWailsTransport({ go: { app: {} }, runtime: { EventsOn } });
    const reconnected = vi.fn();
    const off = t.onReconnect(reconnected);
    handlers.get('bus.overflow')?.({ discarded: 12 });
    expect(reconnected).toHaveBeenCalledTimes(1);
    off();
    expect(handlers.has('bus.overflow')).toBe(false);
  });
});
