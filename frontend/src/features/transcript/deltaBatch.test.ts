import { describe, expect, it } from 'vitest';
import { reduceDeltas } from './deltaBatch';
import { emptyTranscript, transcriptReducer } from './transcriptReducer';

const started = transcriptReducer(emptyTranscript('s'), {
  type: 'turn.started',
  e: { sessionId: 's', turnId: 't1', prompt: 'hi' } as never,
  at: '2026-01-01T00:00:00Z',
});

describe('a burst of deltas in one pass', () => {
  it('ends as reducing them one by one would, stale and repeated deltas dropped', () => {
    const d = (seq: number | undefined, text: string, turnId = 't1') => ({ sessionId: 's', turnId, text, seq });
    const batch = [d(1, 'a'), d(2, 'b'), d(2, 'b'), d(3, 'c'), d(undefined, 'x'), d(4, 'd'), d(1, 'stale'), d(5, 'e')];
    const oneByOne = batch.reduce((t, e) => transcriptReducer(t, { type: 'turn.delta', e }), started);
    expect(reduceDeltas(started, batch)).toEqual(oneByOne);
    // Part of the answer already in a snapshot: only what follows is added.
    const snapshot = transcriptReducer(started, { type: 'turn.delta', e: d(2, 'ab') });
    const rest = [d(1, 'a'), d(2, 'b'), d(3, 'c')];
    expect(reduceDeltas(snapshot, rest)).toEqual(rest.reduce((t, e) => transcriptReducer(t, { type: 'turn.delta', e }), snapshot));
  });
});
