import type { Decision, Resolved } from '../../bridge';
import type { TArgs } from '../../i18n/translate';

/** One line left in the chips band after a decision ended without the person's answer (R-DEC-5). */
export interface Note {
  decisionId: string;
  key: string;
  args?: TArgs;
}

/**
 * What occupies one session's composer: the pending decisions of the session as a FIFO (the head
 * is shown), whether the person opened a fn-form, and the note of the last decision that ended on
 * its own.
 */
export interface QueueState {
  pending: Decision[];
  fnFormOpen: boolean;
  /** Send found no model to send to: the box offers the set-up. */
  setupOpen: boolean;
  note: Note | null;
}

export type QueueAction =
  /** The authoritative list from the server (reload, reconnect): Decisions.Pending or Transcript.pending. */
  | { type: 'restore'; pending: Decision[] }
  | { type: 'asked'; decision: Decision }
  | { type: 'resolved'; resolved: Pick<Resolved, 'id' | 'outcome' | 'reasonKey'> }
  /** Our own Decisions.Resolve returned: the decision is over, whoever won. */
  | { type: 'answered'; id: string }
  | { type: 'openFnForm' }
  | { type: 'closeFnForm' }
  | { type: 'openSetup' }
  | { type: 'closeSetup' }
  | { type: 'dismissNote' };

export const emptyQueue: QueueState = { pending: [], fnFormOpen: false, setupOpen: false, note: null };

/** Outcomes that end a decision without the person's answer leave a note. */
function noteFor(r: Pick<Resolved, 'id' | 'outcome' | 'reasonKey'>): Note | null {
  if (r.outcome === 'timed_out' || r.outcome === 'cancelled' || r.outcome === 'interrupted') {
    return { decisionId: r.id, key: r.reasonKey || `decision.reason.${r.outcome}` };
  }
  return null;
}

const byCreated = (a: Decision, b: Decision) => a.createdAt.localeCompare(b.createdAt);

export function queueReducer(state: QueueState, action: QueueAction): QueueState {
  switch (action.type) {
    case 'restore': {
      const pending = [...action.pending].sort(byCreated);
      // A decision shows up after a reload: it closes a fn-form like a live one would.
      const fnFormOpen = state.fnFormOpen && pending.length === 0;
      return { ...state, pending, fnFormOpen };
    }
    case 'asked': {
      if (state.pending.some((d) => d.id === action.decision.id)) return state;
      // A system decision cancels a fn-form the person opened: no stacking, no stash (R-DEC-3).
      return { ...state, pending: [...state.pending, action.decision], fnFormOpen: false, note: null };
    }
    case 'resolved': {
      const was = state.pending.some((d) => d.id === action.resolved.id);
      if (!was) return state;
      return {
        ...state,
        pending: state.pending.filter((d) => d.id !== action.resolved.id),
        note: noteFor(action.resolved) ?? state.note,
      };
    }
    case 'answered':
      if (!state.pending.some((d) => d.id === action.id)) return state;
      return { ...state, pending: state.pending.filter((d) => d.id !== action.id), note: null };
    case 'openFnForm':
      // The head decision owns the composer; a fn-form waits for it to be answered.
      if (state.pending.length > 0 || state.fnFormOpen) return state;
      return { ...state, fnFormOpen: true, note: null };
    case 'closeFnForm':
      return state.fnFormOpen ? { ...state, fnFormOpen: false } : state;
    case 'openSetup':
      return state.setupOpen ? state : { ...state, setupOpen: true, fnFormOpen: false, note: null };
    case 'closeSetup':
      return state.setupOpen ? { ...state, setupOpen: false } : state;
    case 'dismissNote':
      return state.note ? { ...state, note: null } : state;
  }
}

/**
 * What occupies the composer for a queue state: the FIFO's head when a decision waits, else the
 * fn-form the person opened, else the idle box. The registry turns this into a mode.
 */
export type Occupant = { kind: 'decision'; decision: Decision } | { kind: 'fn-form' } | { kind: 'setup' } | { kind: 'idle' };

export function occupant(state: QueueState): Occupant {
  const head = state.pending[0];
  if (head) return { kind: 'decision', decision: head };
  if (state.fnFormOpen) return { kind: 'fn-form' };
  return state.setupOpen ? { kind: 'setup' } : { kind: 'idle' };
}
