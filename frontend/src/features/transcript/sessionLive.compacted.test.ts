import { describe, expect, it } from 'vitest';
import { createApi } from '../../bridge';
import { FakeTransportBase, type FakeRequest } from '../../test/fakeTransportBase';
import { createSessionLive } from './sessionLive';

/** Sessions.Transcript answers with the log as it stands; a compaction is added to it. */
class LogTransport extends FakeTransportBase {
  items: unknown[] = [{ type: 'user', turnId: 't1', text: 'read a.txt', seq: 2 }];
  protected override handle(method: string, req: FakeRequest): unknown {
    if (method === 'Sessions.Transcript') return { sessionId: req.id, running: 't1', items: this.items, turns: [], first: 2, last: 2 };
    return super.handle(method, req);
  }
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('a live session', () => {
  it('reads the transcript afresh when the runtime records a compaction, and only for its own session', async () => {
    const fake = new LogTransport();
    const live = createSessionLive(createApi(() => fake), 's1');
    const stop = live.start();
    await settle();
    const reads = () => fake.called('Sessions.Transcript').length;
    const before = reads();
    fake.items = [...fake.items, { type: 'compacted', turnId: 't1', seq: 3, compacted: { from: 2, through: 2, summary: 's', tokensBefore: 9, tokensAfter: 1, window: 10 } }];
    fake.emit('session.compacted', { sessionId: 'other' });
    await settle();
    expect(reads()).toBe(before);
    fake.emit('session.compacted', { sessionId: 's1', turnId: 't1', seq: 3 });
    await settle();
    expect(reads()).toBe(before + 1);
    expect(live.get().transcript.items.map((i) => i.type)).toEqual(['user', 'compacted']);
    stop();
  });
});
