import { describe, expect, it } from 'vitest';
import type { Transport } from './transport';
import { typedTransport } from './typed';

function recording() {
  const calls: { method: string; req: unknown }[] = [];
  const events: string[] = [];
  const t: Transport = {
    name: 'http',
    call: async (method, req) => {
      calls.push({ method, req });
      return method === 'Settings.Get' ? { language: 'en' } : null;
    },
    onEvent: (name) => {
      events.push(name);
      return () => {};
    },
    onReconnect: () => () => {},
  };
  return { t, calls, events };
}

describe('typedTransport', () => {
  it('passes the method and its request through, and a method without one sends none', async () => {
    const { t, calls } = recording();
    const { call } = typedTransport(() => t);
    await call('Sessions.Get', { id: 's1' });
    const settings = await call('Settings.Get');
    expect(calls).toEqual([
      { method: 'Sessions.Get', req: { id: 's1' } },
      { method: 'Settings.Get', req: undefined },
    ]);
    expect(settings.language).toBe('en');
  });

  it('subscribes by the event name', () => {
    const { t, events } = recording();
    typedTransport(() => t).on('tool.progress')(() => {});
    expect(events).toEqual(['tool.progress']);
  });
});
