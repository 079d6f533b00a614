import type { Transcript } from '../../bridge';
import { itemSeq } from './transcriptReducer';

/**
 * The transcript holds a window of the log, not all of it: the pages around the view. A session
 * of a hundred thousand events scrolled back to its start would otherwise hold every row it
 * passed, and each older page would cost more than the one before (every loaded row grouped,
 * estimated and measured again). Pages far from the view are dropped at either end and read
 * again by their log entry numbers when the person scrolls back to them.
 *
 * The window is contiguous: it holds every item from the log entry `first` to `last`. `more`
 * says the log holds entries before `first`, `newer` that it holds entries after `last` that the
 * window dropped (the newest end is then not shown, and what streams live waits until it is).
 *
 * With the window bounded, a page put in regroups and re-measures at most the window's rows, so
 * the 400th page costs what the 10th does. The rows are still grouped as one list, not page by
 * page: a turn's chips and a run of mode changes can straddle two pages, and grouping the window
 * took under a millisecond of a page's cost in a profile of the long session (row estimates are
 * kept per item, see Transcript.tsx).
 */

/** Log entries a page asks for: the server's page (app.DefaultTranscriptPage). */
export const PAGE_ENTRIES = 200;

/**
 * The most stored items the window keeps: five pages of a busy log, several screens either side
 * of the one shown. Adding a page beyond it drops as many items from the far end.
 */
export const WINDOW_ITEMS = 1000;

const stored = (t: Pick<Transcript, 'items'>) => t.items.filter((it) => itemSeq(it) > 0);

/** The turns the items belong to, and the running one: what a window keeps of its turn list. */
function turnsOf(t: Transcript, items: Transcript['items']): Transcript['turns'] {
  const named = new Set(items.map((it) => it.turnId));
  named.add(t.running);
  return t.turns.filter((x) => named.has(x.id));
}

/**
 * The window without its newest items beyond `max` stored ones: the person scrolled up, far
 * from them. Items of one log entry (an answer and its calls) go together; what streamed live
 * goes too (it is read again with the newest end). `last` becomes the entry before the first one
 * dropped, which is where the page after it is asked from.
 */
export function dropNewest(t: Transcript, max = WINDOW_ITEMS): Transcript {
  const keep = stored(t);
  if (keep.length <= max) return t;
  let cut = max; // the first item dropped; the entry it starts goes whole
  while (cut > 0 && itemSeq(keep[cut]!) === itemSeq(keep[cut - 1]!)) cut--;
  if (cut === 0) return t;
  const items = keep.slice(0, cut);
  return { ...t, items, turns: turnsOf(t, items), last: itemSeq(keep[cut]!) - 1, newer: true };
}

/**
 * The window without its oldest items beyond `max` stored ones: the person scrolled down, far
 * from them. `first` becomes the first entry kept, which is where the page before it is asked.
 */
export function dropOldest(t: Transcript, max = WINDOW_ITEMS): Transcript {
  const keep = stored(t);
  if (keep.length <= max) return t;
  let cut = keep.length - max; // the first item kept; the entry it starts stays whole
  while (cut < keep.length && itemSeq(keep[cut]!) === itemSeq(keep[cut - 1]!)) cut++;
  if (cut >= keep.length) return t;
  const from = itemSeq(keep[cut]!);
  const items = t.items.filter((it) => itemSeq(it) === 0 || itemSeq(it) >= from);
  return { ...t, items, turns: turnsOf(t, items), first: from, more: true };
}

/**
 * The page after the window's newest entry put after it: the person scrolled back down toward
 * the entries the window dropped. Items the window already holds (by their log entry) are not
 * repeated; what streamed live meanwhile is left out (the newest end is read again once the
 * window reaches it). `newer` stays while the log holds entries after the page.
 */
export function withNewer(t: Transcript, page: Transcript): Transcript {
  const to = t.last ?? 0;
  const newer = page.items.filter((it) => itemSeq(it) > to);
  const known = new Set(t.turns.map((x) => x.id));
  const items = [...stored(t), ...newer];
  return {
    ...t,
    items,
    turns: [...t.turns, ...page.turns.filter((x) => !known.has(x.id))],
    last: page.last || to,
    newer: Boolean(page.more),
  };
}

/**
 * What a fresh read of the newest page changes in a window that does not reach it: the live
 * parts (the running turn, the queue, the pending decisions, the status of the turns it shows),
 * never its items: the person reads an older part of the log.
 */
export function withLive(t: Transcript, fresh: Transcript): Transcript {
  const now = new Map(fresh.turns.map((x) => [x.id, x]));
  const turns = t.turns.map((x) => now.get(x.id) ?? x);
  const running = fresh.turns.find((x) => x.id === fresh.running);
  if (running && !turns.some((x) => x.id === running.id)) turns.push(running);
  return { ...t, running: fresh.running, queue: fresh.queue, pending: fresh.pending, turns };
}

/**
 * What the view draws of the window: all of it while it reaches the newest end; otherwise its
 * stored items and their turns only (what streams live belongs after the entries it dropped).
 */
export function shownPart(t: Transcript): Pick<Transcript, 'items' | 'turns' | 'keys'> {
  if (!t.newer) return t;
  const items = stored(t);
  const named = new Set(items.map((it) => it.turnId));
  return { items, turns: t.turns.filter((x) => named.has(x.id)), keys: t.keys };
}
