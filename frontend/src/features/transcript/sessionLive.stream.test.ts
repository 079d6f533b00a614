import { describe, expect, it } from 'vitest';
import { createApi } from '../../bridge';
import { FakeTransportBase, type FakeRequest } from '../../test/fakeTransportBase';
import { createSessionLive } from './sessionLive';

/** Sessions.Transcript answers with an empty log: what the test shows comes live. */
class EmptyLog extends FakeTransportBase {
  protected override handle(method: string, req: FakeRequest): unknown {
    if (method === 'Sessions.Transcript') return { sessionId: req.id, running: '', items: [], turns: [] };
    if (method === 'Composer.Send') return { turnId: 't1' };
    return super.handle(method, req);
  }
}

const settle = () => new Promise((r) => setTimeout(r, 0));
const frame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));

/** Session s1, live and loaded (its log is empty). */
async function startLive() {
  const fake = new EmptyLog();
  const live = createSessionLive(createApi(() => fake), 's1');
  const stop = live.start();
  await settle();
  return { fake, live, stop };
}

describe('a live session streaming a turn', () => {
  it('applies a burst of 1,000 tool calls at once and tells its view once, not once per event', async () => {
    const { fake, live, stop } = await startLive();
    fake.emit('turn.started', { sessionId: 's1', turnId: 't1', executionMode: 'execute', reasonKey: 'route.reason.execute' });
    let told = 0;
    const off = live.subscribe(() => told++);
    for (let i = 0; i < 1000; i++) {
      fake.emit('tool.call', { sessionId: 's1', turnId: 't1', callId: `c${i}`, name: 'read', input: { path: 'main.go' }, verdict: 'allow', layer: 'mode' });
      fake.emit('tool.done', { sessionId: 's1', turnId: 't1', callId: `c${i}`, output: 'package main' });
    }
    // Read at once: a reload or a send in between merges with every event seen so far.
    const tools = live.get().transcript.items.filter((i) => i.type === 'tool');
    expect(tools).toHaveLength(1000);
    expect(tools.every((x) => x.type === 'tool' && x.done && x.output === 'package main')).toBe(true);
    // Drawn at the next frame, once for the whole burst (a render and a layout per event made
    // the page twenty times slower than the turn).
    expect(told).toBe(0);
    await frame();
    expect(told).toBe(1);
    // A turn's end is told at once, not at a frame; the reload that reconciles with the stored
    // log begins once the end has been drawn.
    const reads = () => fake.calls.filter((c) => c.method === 'Sessions.Transcript').length;
    const readBefore = reads();
    fake.emit('turn.ended', { sessionId: 's1', turnId: 't1', status: 'done' });
    expect(told).toBeGreaterThan(1);
    expect(live.get().transcript.turns[0]?.status).toBe('done');
    expect(reads()).toBe(readBefore);
    await frame();
    await settle();
    expect(reads()).toBe(readBefore + 1);
    off();
    stop();
  });

  it('reads nothing more once its view closed before the turn\'s end was painted', async () => {
    const { fake, stop } = await startLive();
    const reads = () => fake.calls.filter((c) => c.method === 'Sessions.Transcript').length;
    const readBefore = reads();
    fake.emit('turn.started', { sessionId: 's1', turnId: 't1', executionMode: 'execute', reasonKey: 'route.reason.execute' });
    fake.emit('turn.ended', { sessionId: 's1', turnId: 't1', status: 'done' });
    stop();
    await frame();
    await settle();
    expect(reads()).toBe(readBefore);
  });

  it('draws a send that turn.started already showed at the next frame, with the stream, not at once', async () => {
    const { fake, live, stop } = await startLive();
    fake.emit('turn.started', { sessionId: 's1', turnId: 't1', prompt: 'Read it all', executionMode: 'execute', reasonKey: 'route.reason.execute' });
    await frame();
    let told = 0;
    const off = live.subscribe(() => told++);
    const sending = live.send('Read it all');
    // A burst streams while the send's answer is on its way: a drawing for the send would draw it too.
    fake.emit('tool.call', { sessionId: 's1', turnId: 't1', callId: 'c1', name: 'read', input: { path: 'main.go' }, verdict: 'allow', layer: 'mode' });
    await sending;
    expect(told).toBe(0);
    // The message stands once, and the follow to the bottom is counted.
    expect(live.get().transcript.items.filter((i) => i.type === 'user')).toHaveLength(1);
    expect(live.get().sent).toBe(1);
    await frame();
    expect(told).toBe(1);
    off();
    stop();
  });

  it('draws at once a send that nothing showed yet', async () => {
    const { live, stop } = await startLive();
    let told = 0;
    const off = live.subscribe(() => told++);
    await live.send('Read it all');
    expect(told).toBe(1);
    expect(live.get().transcript.items).toEqual([expect.objectContaining({ type: 'user', turnId: 't1', text: 'Read it all' })]);
    expect(live.get().sent).toBe(1);
    off();
    stop();
  });

  it('tells nobody of an event that changes nothing (a delta seen before)', async () => {
    const { fake, live, stop } = await startLive();
    fake.emit('turn.started', { sessionId: 's1', turnId: 't1', executionMode: 'execute', reasonKey: 'route.reason.execute' });
    fake.emit('turn.delta', { sessionId: 's1', turnId: 't1', text: 'Hello', seq: 1 });
    await frame();
    const before = live.get();
    let told = 0;
    const off = live.subscribe(() => told++);
    fake.emit('turn.delta', { sessionId: 's1', turnId: 't1', text: 'Hello', seq: 1 });
    live.dismissNote();
    await frame();
    expect(live.get()).toBe(before);
    expect(told).toBe(0);
    off();
    stop();
  });
});
