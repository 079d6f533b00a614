import { describe, expect, it } from 'vitest';
import type { Item, Transcript } from '../../bridge';
import { carryLiveKeys, emptyTranscript, groupTranscript, keepOlder, normalizeTranscript, runningMode, transcriptReducer, withOlder, type TranscriptAction } from './transcriptReducer';

const play = (actions: TranscriptAction[], from: Transcript = emptyTranscript('s1')) => actions.reduce(transcriptReducer, from);
const started = (turnId: string, prompt?: string): TranscriptAction => ({
  type: 'turn.started',
  e: { sessionId: 's1', turnId, executionMode: 'execute', reasonKey: 'route.reason.execute', ...(prompt ? { prompt } : {}) },
  at: '2025-01-01T10:00:00Z',
});

describe('the live transcript', () => {
  it('puts our message first in its turn even when the turn started before the send returned', () => {
    const t = play([
      started('t1'),
      { type: 'turn.delta', e: { sessionId: 's1', turnId: 't1', text: 'Hi' } },
      { type: 'sent', text: 'Hello', ack: { turnId: 't1' } },
      { type: 'turn.started', e: { sessionId: 's1', turnId: 't1', executionMode: 'execute', reasonKey: 'route.reason.execute', prompt: 'Hello' }, at: 'x' },
    ]);
    expect(t.items.map((i) => i.type)).toEqual(['user', 'assistant']);
  });

  it('streams text, tool output and results into their items', () => {
    const t = play([
      started('t1', 'Go'),
      { type: 'turn.delta', e: { sessionId: 's1', turnId: 't1', text: 'A' } },
      { type: 'turn.delta', e: { sessionId: 's1', turnId: 't1', text: 'B' } },
      { type: 'tool.call', e: { sessionId: 's1', turnId: 't1', callId: 'c1', name: 'bash', input: { command: 'rm x' }, verdict: 'ask' } },
      { type: 'tool.output', e: { sessionId: 's1', turnId: 't1', callId: 'c1', text: 'partial' } },
      { type: 'tool.result', e: { sessionId: 's1', turnId: 't1', callId: 'c1', name: 'bash', output: 'Not now', isError: true, approved: 'reject' } },
      { type: 'turn.delta', e: { sessionId: 's1', turnId: 't1', text: 'C' } },
      { type: 'turn.ended', e: { sessionId: 's1', turnId: 't1', status: 'done', error: '' } },
    ]);
    expect(t.items).toMatchObject([
      { type: 'user', text: 'Go' },
      { type: 'assistant', text: 'AB' },
      { type: 'tool', output: 'Not now', isError: true, approved: 'reject', done: true },
      { type: 'assistant', text: 'C' },
    ]);
    expect(t.running).toBe('');
    expect(t.turns[0]?.status).toBe('done');
  });

  it('gives each result to its own call among many, and a repeated call id to its newest card only', () => {
    const call = (callId: string, path: string): TranscriptAction => ({
      type: 'tool.call',
      e: { sessionId: 's1', turnId: 't1', callId, name: 'read', input: { path }, verdict: 'allow' },
    });
    const result = (callId: string, output: string): TranscriptAction => ({
      type: 'tool.result',
      e: { sessionId: 's1', turnId: 't1', callId, name: 'read', output, isError: false },
    });
    const calls = Array.from({ length: 30 }, (_, i) => call(`c${i}`, `f${i}`));
    const before = play([started('t1', 'Go'), ...calls, result('c0', 'first'), result('c29', 'last')]);
    const tools = before.items.filter((i) => i.type === 'tool');
    expect(tools.map((x) => (x.done ? x.output : '-')).join(' ')).toBe(['first', ...Array(28).fill('-'), 'last'].join(' '));
    // An unknown call changes nothing, not even the list's identity.
    expect(transcriptReducer(before, result('nope', 'x')).items).toBe(before.items);
    // A log that holds one call id twice (a provider that reused it in a later turn): the
    // running call is the newest.
    const stored = (turnId: string, path: string, seq: number) =>
      ({ type: 'tool', turnId, callId: 'c0', name: 'read', input: { path }, verdict: 'allow', seq }) as unknown as Item;
    const log = normalizeTranscript({ sessionId: 's1', running: 't2', items: [stored('t1', 'old', 1), stored('t2', 'new', 9)] });
    const c0 = transcriptReducer(log, { type: 'tool.result', e: { sessionId: 's1', turnId: 't2', callId: 'c0', name: 'read', output: 'now', isError: false } }).items;
    expect(c0).toMatchObject([{ input: { path: 'old' }, output: '' }, { input: { path: 'new' }, output: 'now', done: true }]);
  });

  it('records a steer, ignores a queued message, and adds mode changes once', () => {
    const t = play([
      started('t1', 'Go'),
      { type: 'sent', text: 'also this', ack: { turnId: 't1', steered: true } },
      { type: 'sent', text: 'later', ack: { queued: true } },
      { type: 'session.mode', e: { sessionId: 's1', interactionMode: 'chat', executionOverride: '' } },
      { type: 'session.mode', e: { sessionId: 's1', interactionMode: 'chat', executionOverride: '' } },
    ]);
    expect(t.items.map((i) => i.type)).toEqual(['user', 'user', 'mode']);
    expect(t.items[1]).toMatchObject({ steer: true, text: 'also this' });
  });

  it('groups each turn: message, then its mode chip, items, then its status', () => {
    const t = play([
      started('t1', 'Go'),
      { type: 'turn.delta', e: { sessionId: 's1', turnId: 't1', text: 'ok' } },
      { type: 'turn.ended', e: { sessionId: 's1', turnId: 't1', status: 'interrupted', error: '' } },
      started('t2'),
    ]);
    expect(groupTranscript(t).map((b) => (b.kind === 'item' ? b.item.type : b.kind))).toEqual([
      'user',
      'turn-start',
      'assistant',
      'turn-end',
      'turn-start',
      'turn-end',
    ]);
  });
});

describe('mode switches before a turn', () => {
  const mode = (interactionMode: 'smart' | 'chat', executionOverride: '' | 'plan' | 'debug' = ''): TranscriptAction => ({
    type: 'session.mode',
    e: { sessionId: 's1', interactionMode, executionOverride },
  });
  const dividers = (t: Transcript) =>
    groupTranscript(t).flatMap((b) => (b.kind === 'item' && b.item.type === 'mode' ? [`${b.item.interactionMode}:${b.item.executionOverride}`] : []));

  it('collapse into one divider with the mode the next turn runs in', () => {
    const t = play([mode('smart', 'plan'), started('t1', 'Plan it'), mode('chat'), mode('smart'), mode('smart', 'debug'), started('t2', 'Debug it')]);
    expect(dividers(t)).toEqual(['smart:plan', 'smart:debug']);
  });

  it('leave no divider when they land back on the mode in force', () => {
    const t = play([mode('smart'), started('t1', 'One'), mode('chat'), mode('smart', 'plan'), mode('smart'), started('t2', 'Two')]);
    expect(dividers(t)).toEqual(['smart:']);
  });

  it('keep a change inside a turn (a plan approved) apart from those before the next', () => {
    const t = play([
      mode('smart', 'plan'),
      started('t1', 'Plan'),
      mode('smart'),
      { type: 'turn.delta', e: { sessionId: 's1', turnId: 't1', text: 'Carrying out the plan.' } },
      { type: 'turn.ended', e: { sessionId: 's1', turnId: 't1', status: 'done', error: '' } },
      mode('chat'),
      started('t2', 'Chat'),
    ]);
    expect(dividers(t)).toEqual(['smart:plan', 'smart:', 'chat:']);
  });
});

describe('what the running turn runs as', () => {
  it('is its start mode until a plan is approved inside it, then what the plan runs as', () => {
    const plan: TranscriptAction = {
      type: 'turn.started',
      e: { sessionId: 's1', turnId: 't1', executionMode: 'plan', reasonKey: 'route.reason.override', prompt: 'Plan it' },
      at: 'x',
    };
    let t = play([plan]);
    expect(runningMode(t)).toBe('plan');
    t = transcriptReducer(t, { type: 'session.mode', e: { sessionId: 's1', interactionMode: 'smart', executionOverride: '' } });
    expect(runningMode(t)).toBe('execute');
    t = transcriptReducer(t, { type: 'turn.ended', e: { sessionId: 's1', turnId: 't1', status: 'done', error: '' } });
    expect(runningMode(t)).toBeNull();
  });
});

describe('stale deltas', () => {
  const delta = (text: string, seq: number, turnId = 't1'): TranscriptAction => ({ type: 'turn.delta', e: { sessionId: 's1', turnId, text, seq } });
  const output = (text: string, seq: number): TranscriptAction => ({
    type: 'tool.output',
    e: { sessionId: 's1', turnId: 't1', callId: 'c1', text, seq },
  });
  const call: TranscriptAction = {
    type: 'tool.call',
    e: { sessionId: 's1', turnId: 't1', callId: 'c1', name: 'bash', input: {}, verdict: 'allow' },
  };

  it('drops a repeated or overtaken delta of a stream, per stream', () => {
    const t = play([started('t1', 'Go'), delta('A', 1), delta('A', 1), delta('B', 3), delta('late', 2), call, output('x', 1), output('x', 1), output('y', 2)]);
    expect(t.items).toMatchObject([
      { type: 'user' },
      { type: 'assistant', text: 'AB' },
      { type: 'tool', output: 'xy' },
    ]);
  });

  it('keeps what it has seen across a reload of the transcript', () => {
    const before = play([started('t1', 'Go'), delta('A', 1), delta('B', 2)]);
    const reloaded = transcriptReducer(before, {
      type: 'load',
      transcript: { ...emptyTranscript('s1'), running: 't1', items: [{ type: 'assistant', turnId: 't1', text: 'AB' }] },
    });
    const t = play([delta('B', 2), delta('C', 3)], reloaded);
    expect(t.items).toMatchObject([{ type: 'assistant', text: 'ABC' }]);
  });

  it('drops text after its turn ended and output after its call finished', () => {
    const t = play([
      started('t1', 'Go'),
      delta('A', 1),
      call,
      output('x', 1),
      { type: 'tool.result', e: { sessionId: 's1', turnId: 't1', callId: 'c1', name: 'bash', output: 'x', isError: false } },
      output('stray', 2),
      { type: 'turn.ended', e: { sessionId: 's1', turnId: 't1', status: 'done', error: '' } },
      delta('stray', 2),
    ]);
    expect(t.items).toMatchObject([
      { type: 'user' },
      { type: 'assistant', text: 'A' },
      { type: 'tool', output: 'x', done: true },
    ]);
    expect(t.items).toHaveLength(3);
  });

  it('takes deltas without a seq as they come', () => {
    const t = play([started('t1', 'Go'), { type: 'turn.delta', e: { sessionId: 's1', turnId: 't1', text: 'A' } }, { type: 'turn.delta', e: { sessionId: 's1', turnId: 't1', text: 'A' } }]);
    expect(t.items[1]).toMatchObject({ text: 'AA' });
  });
});

describe('transcript pages', () => {
  const page = (first: number, last: number, more: boolean, turnId: string) =>
    normalizeTranscript({
      sessionId: 's1',
      first,
      last,
      more,
      turns: [{ id: turnId, prompt: '', executionMode: 'execute', reasonKey: 'k', status: 'done', error: '', temporary: false, createdAt: '' }],
      items: Array.from({ length: last - first + 1 }, (_, i) => ({ type: 'assistant', turnId, text: `e${first + i}`, seq: first + i }) as never),
    });
  const texts = (t: Transcript) => t.items.map((i) => (i.type === 'assistant' ? i.text : i.type));

  it('puts an older page before what is shown, once, with its turns', () => {
    const newest = page(11, 20, true, 't2');
    const both = withOlder(newest, page(1, 12, false, 't1'));
    expect(texts(both)).toEqual(Array.from({ length: 20 }, (_, i) => `e${i + 1}`));
    expect(both.turns.map((t) => t.id)).toEqual(['t1', 't2']);
    expect([both.first, both.more]).toEqual([1, false]);
  });

  it('keeps the older pages scrolled to when the newest page is read again', () => {
    const shown = withOlder(page(11, 20, true, 't2'), page(1, 10, false, 't1'));
    const again = keepOlder(shown, page(13, 22, true, 't2'));
    expect(texts(again)).toEqual([...Array.from({ length: 12 }, (_, i) => `e${i + 1}`), ...Array.from({ length: 10 }, (_, i) => `e${i + 13}`)]);
    expect([again.first, again.more, again.last]).toEqual([1, false, 22]);
    // Nothing older was shown: the fresh page stands as it is.
    const fresh = page(13, 22, true, 't2');
    expect(keepOlder(page(13, 22, true, 't2'), fresh)).toBe(fresh);
  });
});

describe('what a delta changes', () => {
  const stored = (): Transcript =>
    normalizeTranscript({
      sessionId: 's1',
      running: 't2',
      turns: [
        { id: 't1', prompt: 'One', executionMode: 'execute', reasonKey: '', status: 'done', error: '', temporary: false, createdAt: '2025-01-01T10:00:00Z' },
        { id: 't2', prompt: 'Two', executionMode: 'execute', reasonKey: '', status: 'running', error: '', temporary: false, createdAt: '2025-01-01T10:01:00Z' },
      ],
      items: [
        { type: 'user', turnId: 't1', text: 'One', steer: false, seq: 10 } as never,
        { type: 'assistant', turnId: 't1', text: 'First answer', seq: 11 } as never,
        { type: 'tool', turnId: 't1', callId: 'c1', name: 'bash', input: { command: 'ls' }, output: 'a.go', verdict: 'allow', seq: 12 } as never,
        { type: 'user', turnId: 't2', text: 'Two', steer: false, seq: 13 } as never,
        { type: 'assistant', turnId: 't2', text: 'Stre', seq: 14 } as never,
      ],
      first: 10,
      last: 14,
    });

  it('keeps the identity of every item, turn and block but the last one it grows', () => {
    const before = stored();
    const after = transcriptReducer(before, { type: 'turn.delta', e: { sessionId: 's1', turnId: 't2', text: 'aming' } });
    expect(after.items).toHaveLength(before.items.length);
    after.items.slice(0, -1).forEach((it, i) => expect(it).toBe(before.items[i]));
    expect(after.items.at(-1)).not.toBe(before.items.at(-1));
    expect(after.items.at(-1)).toMatchObject({ type: 'assistant', text: 'Streaming' });
    expect(after.turns).toBe(before.turns);
    // The rendered blocks carry the very same items and turns under the same keys.
    const [b0, b1] = [groupTranscript(before), groupTranscript(after)];
    expect(b1.map((b) => b.key)).toEqual(b0.map((b) => b.key));
    const payload = (b: (typeof b0)[number]) => (b.kind === 'item' ? b.item : b.turn);
    b1.forEach((b, i) => {
      if (b.kind === 'item' && b.item === after.items.at(-1)) return;
      expect(payload(b)).toBe(payload(b0[i]!));
    });
  });

  it('keeps every key when an older page comes in above, and when a reload stores what streamed live', () => {
    const live = play(
      [
        started('t3', 'Three'),
        { type: 'turn.delta', e: { sessionId: 's1', turnId: 't3', text: 'Live answer' } },
        { type: 'tool.call', e: { sessionId: 's1', turnId: 't3', callId: 'c3', name: 'bash', input: {}, verdict: 'allow' } },
        { type: 'turn.delta', e: { sessionId: 's1', turnId: 't3', text: 'Done.' } },
      ],
      { ...stored(), running: '' },
    );
    const keys = (t: Transcript) => groupTranscript(t).map((b) => b.key);
    const shown = keys(live);
    expect(new Set(shown).size).toBe(shown.length);

    const older = normalizeTranscript({
      sessionId: 's1',
      turns: [{ id: 't0', prompt: 'Zero', executionMode: 'execute', reasonKey: '', status: 'done', error: '', temporary: false, createdAt: '2025-01-01T09:00:00Z' }],
      items: [{ type: 'user', turnId: 't0', text: 'Zero', steer: false, seq: 5 } as never, { type: 'assistant', turnId: 't0', text: 'Old', seq: 6 } as never],
      first: 5,
      last: 6,
    });
    const withPage = withOlder(live, older);
    expect(keys(withPage).slice(-shown.length)).toEqual(shown);

    // The turn ends; the stored page now holds what streamed, with log entries of its own.
    const fresh = normalizeTranscript({
      ...stored(),
      running: '',
      turns: [...stored().turns, { id: 't3', prompt: 'Three', executionMode: 'execute', reasonKey: '', status: 'done', error: '', temporary: false, createdAt: '2025-01-01T10:02:00Z' }],
      items: [
        ...stored().items,
        { type: 'user', turnId: 't3', text: 'Three', steer: false, seq: 15 } as never,
        { type: 'assistant', turnId: 't3', text: 'Live answer', seq: 16 } as never,
        { type: 'tool', turnId: 't3', callId: 'c3', name: 'bash', input: {}, output: '', verdict: 'allow', seq: 17 } as never,
        { type: 'assistant', turnId: 't3', text: 'Done.', seq: 18 } as never,
      ],
      last: 18,
    });
    const reloaded = carryLiveKeys(withPage, keepOlder(withPage, fresh));
    expect(keys(reloaded)).toEqual(keys(withPage));
    // Without the carried keys the streamed rows would be drawn afresh under new keys.
    expect(keys(keepOlder(withPage, fresh))).not.toEqual(keys(withPage));
  });
});
