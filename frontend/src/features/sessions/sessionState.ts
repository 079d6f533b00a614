import type { Session, SessionStateEvent } from '../../bridge';

/**
 * The live part of a session (running, waiting for the person) arrives from several places: the
 * list broadcast, our own requests' answers, and session.state. The server numbers every state it
 * reports (stateSeq), so whichever arrives last, the newest state wins: a create response that
 * comes after the broadcast of the turn it started cannot clear the running dot.
 */
const seqOf = (s: Pick<Session, 'stateSeq'> | undefined) => s?.stateSeq ?? -1;

const updated = (s: Session) => Date.parse(s.updatedAt) || 0;

/**
 * A session from a list or a response, keeping what is already known when that is newer: the
 * record by its updatedAt (a create response must not undo the title the first message gave),
 * the live state by its seq.
 */
export function mergeSession(prev: Session | undefined, next: Session): Session {
  if (!prev) return next;
  const record = updated(prev) > updated(next) ? prev : next;
  const live = seqOf(prev) > seqOf(next) ? prev : next;
  if (record === next && live === next) return next;
  return { ...record, running: live.running, waiting: live.waiting, stateSeq: live.stateSeq };
}

/** Takes in a whole list; sessions it leaves out are gone. */
export function mergeList(prev: readonly Session[], next: readonly Session[]): Session[] {
  const byId = new Map(prev.map((s) => [s.id, s]));
  return next.map((s) => mergeSession(byId.get(s.id), s));
}

/** Applies session.state to its session, unless a newer state is already known. */
export function applyState(list: readonly Session[], e: SessionStateEvent): Session[] {
  return list.map((s) =>
    s.id !== e.sessionId || seqOf(s) > e.stateSeq ? s : { ...s, running: e.running, waiting: e.waiting, stateSeq: e.stateSeq },
  );
}

/**
 * Unread: a turn ended in a session the person is not looking at. Opening the session reads it;
 * a session that is gone is dropped.
 */
export function nextUnread(unread: readonly string[], before: readonly Session[], after: readonly Session[], viewing: string | null): string[] {
  const was = new Map(before.map((s) => [s.id, s]));
  const ids = new Set(after.map((s) => s.id));
  const out = new Set(unread.filter((id) => ids.has(id)));
  for (const s of after) {
    if (was.get(s.id)?.running && !s.running && s.id !== viewing) out.add(s.id);
  }
  if (viewing) out.delete(viewing);
  return sameMembers(out, unread) ? (unread as string[]) : [...out];
}

function sameMembers(a: Set<string>, b: readonly string[]): boolean {
  return a.size === b.length && b.every((x) => a.has(x));
}

/** What the sidebar shows for a session, most pressing first. */
export type SessionBadge = 'waiting' | 'running' | 'unread' | null;

export function sessionBadge(s: Partial<Pick<Session, 'running' | 'waiting'>>, unread: boolean): SessionBadge {
  if ((s.waiting ?? 0) > 0) return 'waiting';
  if (s.running) return 'running';
  return unread ? 'unread' : null;
}
