import { describe, expect, it } from 'vitest';
import type { Transcript } from '../../bridge';
import { createApi } from '../../bridge';
import { FakeTransportBase, type FakeRequest } from '../../test/fakeTransportBase';
import { createSessionLive } from './sessionLive';
import { groupTranscript, itemSeq, normalizeTranscript } from './transcriptReducer';
import { dropNewest, dropOldest, PAGE_ENTRIES, shownPart, WINDOW_ITEMS, withLive, withNewer } from './transcriptWindow';

/** Turn n holds log entries 10n-9 … 10n: a user message, then answers. */
const turnOf = (seq: number) => `t${Math.ceil(seq / 10)}`;
const turn = (id: string, status = 'done') => ({ id, prompt: '', executionMode: 'execute', reasonKey: '', status, error: '', temporary: false, createdAt: '2025-01-01T10:00:00Z' });
const entry = (seq: number) =>
  seq % 10 === 1 ? { type: 'user', turnId: turnOf(seq), text: `ask ${seq}`, seq } : { type: 'assistant', turnId: turnOf(seq), text: `answer ${seq}`, seq };

/** A transcript of log entries from..to (one item each), as a page of the server reads. */
function page(from: number, to: number, more = from > 1, extra: Partial<Transcript> = {}): Transcript {
  const items = [];
  for (let s = from; s <= to; s++) items.push(entry(s));
  const turns = [...new Set(items.map((it) => it.turnId))].map((id) => turn(id));
  return { ...normalizeTranscript({ sessionId: 's1', items: items as never, turns: turns as never, first: from, last: to, more }), ...extra };
}

const seqs = (t: Transcript) => t.items.map(itemSeq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('the window of log pages the transcript keeps', () => {
  it('drops its newest items past the bound, whole entries at a time, and says where to read them again', () => {
    const t = dropNewest(page(1, 1200, false), WINDOW_ITEMS);
    expect(seqs(t)).toEqual(range(1, 1000));
    expect(t.last).toBe(1000); // the page after it is asked from entry 1000: 1001 comes first
    expect(t.newer).toBe(true);
    expect(t.turns.map((x) => x.id)).toEqual(range(1, 100).map((n) => `t${n}`));
    // An answer and its calls start at one entry: they are kept or dropped together.
    const shared = page(1, 3, false);
    shared.items.splice(2, 0, { type: 'tool', turnId: 't1', callId: 'c1', name: 'read', input: {}, output: '', isError: false, verdict: 'allow', layer: '', code: '', approved: '', done: true, seq: 2 });
    expect(seqs(dropNewest(shared, 2))).toEqual([1]);
    expect(dropNewest(shared, 2).last).toBe(1);
    // Within the bound nothing changes.
    const small = page(1, 10, false);
    expect(dropNewest(small, 10)).toBe(small);
  });

  it('drops its oldest items past the bound and asks the page before from the first kept', () => {
    const t = dropOldest({ ...page(1, 1200, true), newer: true }, WINDOW_ITEMS);
    expect(seqs(t)).toEqual(range(201, 1200));
    expect(t.first).toBe(201);
    expect(t.more).toBe(true);
    expect(t.turns[0]?.id).toBe('t21');
  });

  it('puts the page after the window below it once, and knows when it reached the newest end', () => {
    const w = { ...page(1001, 1400), newer: true };
    const next = withNewer(w, page(1391, 1600, true));
    expect(seqs(next)).toEqual(range(1001, 1600));
    expect(next.last).toBe(1600);
    expect(next.newer).toBe(true);
    expect(new Set(next.turns.map((x) => x.id)).size).toBe(next.turns.length);
    expect(withNewer(next, page(1601, 1700, false)).newer).toBe(false);
  });

  it('shows only stored rows while the newest end is dropped, and takes what is live from a fresh read', () => {
    const live = { ...page(1, 20, false), running: 't9' };
    live.items.push({ type: 'assistant', turnId: 't9', text: 'streaming' });
    live.turns.push(turn('t9', 'running') as never);
    const windowed = { ...live, newer: true };
    expect(shownPart(live)).toBe(live);
    expect(shownPart(windowed).items.map(itemSeq)).toEqual(range(1, 20));
    expect(groupTranscript(shownPart(windowed)).some((b) => b.key.endsWith('t9'))).toBe(false);
    // A reload while scrolled back keeps the window's rows; the turn's end reaches its chip.
    const fresh = { ...page(881, 900), running: '' };
    fresh.turns = [{ ...turn('t2', 'failed') } as never];
    const after = withLive(windowed, fresh);
    expect(seqs(after)).toEqual(seqs(windowed));
    expect(after.running).toBe('');
    expect(after.turns.find((x) => x.id === 't2')?.status).toBe('failed');
  });
});

/** A session whose log holds `size` entries, paged by the server's rules (before / after / the newest). */
class LongLog extends FakeTransportBase {
  constructor(public size: number) {
    super();
  }
  protected override handle(method: string, req: FakeRequest): unknown {
    if (method === 'Composer.Send') return { turnId: 'tnew' };
    if (method !== 'Sessions.Transcript') return super.handle(method, req);
    const limit = Number(req.limit ?? PAGE_ENTRIES);
    const after = Number(req.after ?? 0);
    const before = Number(req.before ?? 0);
    let from: number;
    let to: number;
    let more: boolean;
    if (after > 0) {
      [from, to] = [after + 1, Math.min(this.size, after + limit)];
      more = to < this.size;
    } else {
      to = before > 0 ? Math.min(this.size, before - 1) : this.size;
      from = Math.max(1, to - limit + 1);
      more = from > 1;
    }
    const items = range(from, to).map(entry);
    const turns = [...new Set(items.map((it) => it.turnId))].map((id) => turn(id));
    return { sessionId: req.id, running: '', queue: [], pending: [], turns, items, first: from, last: to, more };
  }
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('a live session scrolled back through a long log', () => {
  it('holds a bounded number of rows at any depth, reads dropped pages again by their entries, and jumps to either end by key', async () => {
    const fake = new LongLog(20_000);
    const live = createSessionLive(createApi(() => fake), 's1');
    const stop = live.start();
    await settle();
    const t = () => live.get().transcript;
    expect(t().first).toBe(19_801);

    // Scrolling up 60 pages: each asks for the page before the oldest shown, and the window
    // never holds more than its bound (plus the page just put in).
    let most = 0;
    for (let i = 0; i < 60; i++) {
      await live.loadOlder();
      most = Math.max(most, t().items.length, groupTranscript(shownPart(t())).length / 2);
    }
    expect(t().first).toBe(19_801 - 60 * PAGE_ENTRIES);
    expect(most).toBeLessThanOrEqual(WINDOW_ITEMS);
    expect(t().newer).toBe(true);
    expect(seqs(t())).toEqual(range(t().first!, t().last!));
    const befores = fake.called('Sessions.Transcript').map((c) => (c.req as FakeRequest).before);
    expect(befores.slice(-2)).toEqual([19_801 - 58 * PAGE_ENTRIES, 19_801 - 59 * PAGE_ENTRIES]);

    // Back down: the dropped pages are read again after the newest kept entry, never repeated.
    const lastBefore = t().last!;
    await live.loadNewer();
    expect((fake.calls.at(-1)!.req as FakeRequest).after).toBe(lastBefore);
    expect(t().last).toBe(lastBefore + PAGE_ENTRIES);
    expect(t().items.length).toBeLessThanOrEqual(WINDOW_ITEMS);
    expect(seqs(t())).toEqual(range(t().first!, t().last!));

    // The start of the log is one request by its entry numbers, not sixty more pages.
    const reads = fake.called('Sessions.Transcript').length;
    await live.jumpToStart();
    expect(fake.called('Sessions.Transcript').length).toBe(reads + 1);
    expect((fake.calls.at(-1)!.req as FakeRequest).before).toBe(PAGE_ENTRIES + 1);
    expect(seqs(t())).toEqual(range(1, PAGE_ENTRIES));
    expect(t().more).toBe(false);
    expect(t().newer).toBe(true);

    // And the newest end is one request too.
    await live.jumpToLatest();
    expect(t().newer).toBeFalsy();
    expect(t().last).toBe(20_000);
    stop();
  });

  it('reaches the newest end again by scrolling down, and reads it afresh there', async () => {
    const fake = new LongLog(3_000);
    const live = createSessionLive(createApi(() => fake), 's1');
    const stop = live.start();
    await settle();
    for (let i = 0; i < 8; i++) await live.loadOlder();
    const t = () => live.get().transcript;
    expect(t().newer).toBe(true);
    for (let i = 0; i < 20 && t().newer; i++) await live.loadNewer();
    await settle();
    expect(t().newer).toBeFalsy();
    expect(t().last).toBe(3_000);
    expect(seqs(t())).toEqual(range(t().first!, 3_000));
    expect(t().items.length).toBeLessThanOrEqual(WINDOW_ITEMS + PAGE_ENTRIES);
    stop();
  });

  it('keeps the window scrolled back through a reload, and reads the newest end before a message sent from there', async () => {
    const fake = new LongLog(3_000);
    const live = createSessionLive(createApi(() => fake), 's1');
    const stop = live.start();
    await settle();
    for (let i = 0; i < 8; i++) await live.loadOlder();
    const t = () => live.get().transcript;
    const shown = seqs(t());
    const reads = fake.called('Sessions.Transcript').length;
    // A turn ends in another window: the reload takes what is live, not the newest page's rows.
    fake.emit('turn.ended', { sessionId: 's1', turnId: 't1', status: 'done' });
    await new Promise((r) => requestAnimationFrame(() => r(undefined)));
    await settle();
    expect(fake.called('Sessions.Transcript').length).toBe(reads + 1);
    expect(seqs(t())).toEqual(shown);
    expect(t().newer).toBe(true);

    await live.send('hello from far back');
    expect(t().newer).toBeFalsy();
    expect(t().last).toBe(3_000);
    expect(t().items.at(-1)).toMatchObject({ type: 'user', text: 'hello from far back', turnId: 'tnew' });
    expect(live.get().sent).toBe(1);
    stop();
  });
});
