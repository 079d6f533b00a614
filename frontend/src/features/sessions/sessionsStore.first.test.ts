import { describe, expect, it } from 'vitest';
import { FakeDesk } from '../../app/testing/fakeDesk';
import { createApi } from '../../bridge';
import { BridgeError, TRANSPORT } from '../../bridge/errors';
import { session } from '../../test/fakeTransport';
import { createSessionsStore } from './sessionsStore';

const noUnread = { load: () => [], save: () => undefined };

describe('the first load, which the page waits for to know its first screen', () => {
  it('settles once the list is known, not before', async () => {
    const fake = new FakeDesk({ sessions: [session('s1', 'One', '2025-01-02T08:00:00Z')] });
    const store = createSessionsStore(createApi(() => fake), noUnread);
    const stop = store.start();
    expect(store.get().status).toBe('loading');
    await store.firstLoaded();
    expect(store.get().status).toBe('ready');
    expect(store.get().sessions.map((s) => s.id)).toEqual(['s1']);
    stop();
  });

  it('settles when the list fails too, and at once before the store starts', async () => {
    const fake = new FakeDesk();
    // The desk, with every call failing as an unreachable backend's do.
    const down = Object.assign(Object.create(fake) as FakeDesk, {
      call: () => Promise.reject(new BridgeError(TRANSPORT, 'down')),
    });
    const store = createSessionsStore(createApi(() => down), noUnread);
    await store.firstLoaded();
    expect(store.get().status).toBe('loading');
    const stop = store.start();
    await store.firstLoaded();
    expect(store.get().status).toBe('error');
    stop();
  });
});
