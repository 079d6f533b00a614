import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from './errors';
import { createHttpTransport, MAX_BACKOFF_MS, MIN_BACKOFF_MS, type HttpDeps } from './http';

class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.();
  }
  send(name: string, data: unknown) {
    this.onmessage?.({ data: JSON.stringify({ name, data }) });
  }
  drop() {
    this.onclose?.();
  }
}

function deps(fetchImpl: HttpDeps['fetch'] = vi.fn()): HttpDeps {
  return {
    fetch: fetchImpl,
    WebSocket: FakeSocket as unknown as HttpDeps['WebSocket'],
    location: { protocol: 'http:', host: '127.0.0.1:4321' },
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  };
}

const respond = (status: number, body: string) => vi.fn().mockResolvedValue(new Response(body, { status }));

async function failure(p: Promise<unknown>): Promise<BridgeError> {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(BridgeError);
  return err as BridgeError;
}

describe('HTTP transport: requests', () => {
  it('POSTs JSON to /api/<Struct>.<Method> with the cookie', async () => {
    const fetch = respond(200, JSON.stringify({ id: 'a', title: 'T' }));
    const t = createHttpTransport(deps(fetch));
    await expect(t.call('Sessions.Rename', { id: 'a', title: 'T' })).resolves.toEqual({ id: 'a', title: 'T' });
    expect(fetch).toHaveBeenCalledWith('/api/Sessions.Rename', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: '{"id":"a","title":"T"}',
    });
  });

  it('sends {} when there is no request, and returns null results', async () => {
    const fetch = respond(200, 'null');
    const t = createHttpTransport(deps(fetch));
    await expect(t.call('Sessions.List')).resolves.toBeNull();
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ body: '{}' });
  });

  it('maps an error body to a typed error', async () => {
    const body = JSON.stringify({ error: { kind: 'INVALID_VALUE', message: '“fr” is not a valid language.', args: { Value: 'fr' } } });
    const err = await failure(createHttpTransport(deps(respond(400, body))).call('Settings.SetLanguage', { language: 'fr' }));
    expect(err.kind).toBe('INVALID_VALUE');
    expect(err.message).toBe('“fr” is not a valid language.');
    expect(err.args).toEqual({ Value: 'fr' });
  });

  it('maps a non-JSON error body to INTERNAL with the text', async () => {
    const err = await failure(createHttpTransport(deps(respond(502, 'Bad Gateway'))).call('Sessions.List'));
    expect(err.kind).toBe('INTERNAL');
    expect(err.message).toBe('Bad Gateway');
    expect(err.args).toEqual({ status: 502 });
  });

  it('maps a network failure to TRANSPORT', async () => {
    const fetch = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    const err = await failure(createHttpTransport(deps(fetch)).call('Sessions.List'));
    expect(err.kind).toBe('TRANSPORT');
    expect(err.message).toBe('Failed to fetch');
  });

  it('maps an unreadable success body to TRANSPORT', async () => {
    const err = await failure(createHttpTransport(deps(respond(200, '<html>'))).call('Sessions.List'));
    expect(err.kind).toBe('TRANSPORT');
  });
});

describe('HTTP transport: events over one WebSocket', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('opens one socket at ws://<host>/ws and dispatches by name', () => {
    const t = createHttpTransport(deps());
    const a: unknown[] = [];
    const b: unknown[] = [];
    t.onEvent('sessions.changed', (d) => a.push(d));
    t.onEvent('settings.changed', (d) => b.push(d));
    expect(FakeSocket.all).toHaveLength(1);
    const ws = FakeSocket.all[0]!;
    expect(ws.url).toBe('ws://127.0.0.1:4321/ws');
    ws.open();
    ws.send('settings.changed', { language: 'zh-CN' });
    ws.send('sessions.changed', []);
    ws.onmessage?.({ data: 'not json' });
    expect(a).toEqual([[]]);
    expect(b).toEqual([{ language: 'zh-CN' }]);
  });

  it('dispatches the events of a batched frame (an array) in their order', () => {
    const t = createHttpTransport(deps());
    const got: unknown[] = [];
    t.onEvent('tool.call', (d) => got.push(['call', d]));
    t.onEvent('tool.result', (d) => got.push(['result', d]));
    const ws = FakeSocket.all[0]!;
    ws.open();
    const frame = [
      { name: 'tool.call', data: 1 },
      { name: 'nobody.listens', data: 0 },
      { name: 'tool.result', data: 1 },
      'not an event',
      { name: 'tool.call', data: 2 },
    ];
    ws.onmessage?.({ data: JSON.stringify(frame) });
    expect(got).toEqual([
      ['call', 1],
      ['result', 1],
      ['call', 2],
    ]);
  });

  it('uses wss on https pages', () => {
    const d = deps();
    d.location = { protocol: 'https:', host: 'example.test' };
    createHttpTransport(d).onEvent('x', () => {});
    expect(FakeSocket.all[0]?.url).toBe('wss://example.test/ws');
  });

  it('reconnects with growing backoff and tells listeners it came back', () => {
    const t = createHttpTransport(deps());
    const reconnects = vi.fn();
    t.onReconnect(reconnects);
    t.onEvent('sessions.changed', () => {});
    FakeSocket.all[0]!.open();
    expect(reconnects).not.toHaveBeenCalled();

    FakeSocket.all[0]!.drop();
    vi.advanceTimersByTime(MIN_BACKOFF_MS - 1);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);

    FakeSocket.all[1]!.drop(); // failed attempt: the wait doubles
    vi.advanceTimersByTime(MIN_BACKOFF_MS * 2 - 1);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(3);

    FakeSocket.all[2]!.open();
    expect(reconnects).toHaveBeenCalledTimes(1);

    FakeSocket.all[2]!.drop(); // after a good connection the wait starts small again
    vi.advanceTimersByTime(MIN_BACKOFF_MS);
    expect(FakeSocket.all).toHaveLength(4);
  });

  it('says when the event stream drops and when it is back, once per change', () => {
    const t = createHttpTransport(deps());
    const states: boolean[] = [];
    t.onConnection?.((up) => states.push(up));
    t.onEvent('sessions.changed', () => {});
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop();
    vi.advanceTimersByTime(MIN_BACKOFF_MS);
    FakeSocket.all[1]!.drop(); // still down: nothing new to say
    vi.advanceTimersByTime(MIN_BACKOFF_MS * 2);
    FakeSocket.all[2]!.open();
    expect(states).toEqual([true, false, true]);
  });

  it('caps the backoff', () => {
    const t = createHttpTransport(deps());
    t.onEvent('x', () => {});
    for (let i = 0; i < 10; i++) {
      FakeSocket.all.at(-1)!.drop();
      vi.advanceTimersByTime(MAX_BACKOFF_MS);
    }
    expect(FakeSocket.all).toHaveLength(11);
  });

  it('closes the socket when the last listener leaves and stops retrying', () => {
    const t = createHttpTransport(deps());
    const off1 = t.onEvent('a', () => {});
    const off2 = t.onEvent('b', () => {});
    const ws = FakeSocket.all[0]!;
    off1();
    expect(ws.closed).toBe(false);
    off2();
    expect(ws.closed).toBe(true);
    ws.drop();
    vi.advanceTimersByTime(MAX_BACKOFF_MS * 2);
    expect(FakeSocket.all).toHaveLength(1);
  });
});
