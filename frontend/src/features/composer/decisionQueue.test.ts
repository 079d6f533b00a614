import { describe, expect, it } from 'vitest';
import type { Decision } from '../../bridge';
import { emptyQueue, occupant, queueReducer, type QueueAction, type QueueState } from './decisionQueue';

const d = (id: string, kind: Decision['kind'] = 'approval', createdAt = `2025-01-01T10:00:0${id.length}Z`): Decision => ({
  id,
  sessionId: 's1',
  turnId: 't1',
  kind,
  payload: {},
  createdAt,
  deadline: '',
});

const run = (actions: QueueAction[], from: QueueState = emptyQueue) => actions.reduce(queueReducer, from);

describe('the decision queue', () => {
  it('is a FIFO: the head occupies the composer, the next appears when it is answered', () => {
    let s = run([
      { type: 'asked', decision: d('a', 'approval') },
      { type: 'asked', decision: d('b', 'plan_review') },
      { type: 'asked', decision: d('c', 'question') },
    ]);
    expect(occupant(s)).toEqual({ kind: 'decision', decision: d('a', 'approval') });
    s = queueReducer(s, { type: 'answered', id: 'a' });
    expect(occupant(s)).toMatchObject({ kind: 'decision', decision: { id: 'b' } });
    s = queueReducer(s, { type: 'resolved', resolved: { id: 'b', outcome: 'answered' } });
    expect(occupant(s)).toMatchObject({ kind: 'decision', decision: { id: 'c' } });
    s = queueReducer(s, { type: 'answered', id: 'c' });
    expect(occupant(s)).toEqual({ kind: 'idle' });
  });

  it('ignores a decision announced twice', () => {
    const s = run([
      { type: 'asked', decision: d('a') },
      { type: 'asked', decision: d('a') },
    ]);
    expect(s.pending.map((x) => x.id)).toEqual(['a']);
  });

  it('a system decision cancels a fn-form the person opened (no stash)', () => {
    let s = run([{ type: 'openFnForm' }]);
    expect(occupant(s)).toEqual({ kind: 'fn-form' });
    s = queueReducer(s, { type: 'asked', decision: d('a') });
    expect(occupant(s)).toMatchObject({ kind: 'decision' });
    expect(s.fnFormOpen).toBe(false);
    // Answering it goes back to idle, not to the form.
    s = queueReducer(s, { type: 'answered', id: 'a' });
    expect(occupant(s)).toEqual({ kind: 'idle' });
  });

  it('does not open a fn-form over a waiting decision', () => {
    const s = run([{ type: 'asked', decision: d('a') }, { type: 'openFnForm' }]);
    expect(s.fnFormOpen).toBe(false);
    expect(occupant(s)).toMatchObject({ kind: 'decision' });
  });

  it('a timeout leaves the mode and the note "No response, timed out."', () => {
    const s = run([
      { type: 'asked', decision: d('a') },
      { type: 'resolved', resolved: { id: 'a', outcome: 'timed_out', reasonKey: 'decision.reason.timed_out' } },
    ]);
    expect(occupant(s)).toEqual({ kind: 'idle' });
    expect(s.note).toEqual({ decisionId: 'a', key: 'decision.reason.timed_out' });
  });

  it('derives the note key from the outcome when the server sends none', () => {
    const s = run([
      { type: 'asked', decision: d('a') },
      { type: 'resolved', resolved: { id: 'a', outcome: 'timed_out' } },
    ]);
    expect(s.note?.key).toBe('decision.reason.timed_out');
  });

  it('an answer from elsewhere clears the composer without a note', () => {
    const s = run([
      { type: 'asked', decision: d('a') },
      { type: 'resolved', resolved: { id: 'a', outcome: 'answered' } },
    ]);
    expect(occupant(s)).toEqual({ kind: 'idle' });
    expect(s.note).toBeNull();
  });

  it('a resolution for a decision it never had changes nothing', () => {
    const s = run([{ type: 'asked', decision: d('a') }]);
    expect(queueReducer(s, { type: 'resolved', resolved: { id: 'zz', outcome: 'timed_out' } })).toBe(s);
  });

  it('a new decision replaces the old note; dismissing clears it', () => {
    let s = run([
      { type: 'asked', decision: d('a') },
      { type: 'resolved', resolved: { id: 'a', outcome: 'timed_out' } },
    ]);
    expect(queueReducer(s, { type: 'dismissNote' }).note).toBeNull();
    s = queueReducer(s, { type: 'asked', decision: d('b') });
    expect(s.note).toBeNull();
  });

  it('restores the pending list after a reload, oldest first', () => {
    const s = run([{ type: 'restore', pending: [d('b', 'question', '2025-01-01T10:00:05Z'), d('a', 'approval', '2025-01-01T10:00:01Z')] }]);
    expect(s.pending.map((x) => x.id)).toEqual(['a', 'b']);
    expect(occupant(s)).toMatchObject({ kind: 'decision', decision: { id: 'a' } });
  });
});
