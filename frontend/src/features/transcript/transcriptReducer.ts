import type * as G from '../../bridge/generated';
import type {
  Ack,
  CheckpointMark,
  ExecutionMode,
  DirectResult,
  Item,
  ModeItem,
  QueueChangedEvent,
  SessionModeEvent,
  ToolCallEvent,
  ToolItem,
  ToolProgress,
  ToolOutputEvent,
  ToolProgressEvent,
  ToolResultEvent,
  Transcript,
  Turn,
  TurnDeltaEvent,
  TurnEndedEvent,
  TurnStartedEvent,
} from '../../bridge';

export const emptyTranscript = (sessionId: string): Transcript => ({
  sessionId,
  running: '',
  queue: [],
  pending: [],
  turns: [],
  items: [],
});

/** T with the fields K optional: what the reducer also takes from an older server, which left them out. */
type Lenient<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

export type TranscriptAction =
  | { type: 'load'; transcript: Transcript }
  | { type: 'turn.started'; e: Lenient<TurnStartedEvent, 'prompt' | 'reason'>; at: string }
  | { type: 'turn.delta'; e: Lenient<TurnDeltaEvent, 'seq'> }
  | { type: 'turn.ended'; e: TurnEndedEvent }
  | { type: 'tool.call'; e: Lenient<ToolCallEvent, 'summary'> }
  | { type: 'tool.output'; e: Lenient<ToolOutputEvent, 'seq'> }
  | { type: 'tool.progress'; e: ToolProgressEvent }
  | { type: 'tool.result'; e: ToolResultEvent }
  | { type: 'tool.direct'; e: DirectResult }
  | { type: 'session.mode'; e: SessionModeEvent }
  | { type: 'session.permission'; e: { sessionId: string; permissionMode: string } }
  | { type: 'queue.changed'; e: QueueChangedEvent }
  | { type: 'context.cleared' }
  | { type: 'checkpoint.created'; e: CheckpointMark }
  /** Our own Composer.Send was accepted: show the message at once. */
  | { type: 'sent'; text: string; ack: Ack };

/** A transcript page as it may arrive: the wire's (G.Transcript), or a part of one. */
export type TranscriptPage = Partial<Omit<G.Transcript, 'sessionId'>> & { sessionId: string };

/** Fills what an older or partial payload left out, so rendering never meets undefined lists. */
export function normalizeTranscript(t: TranscriptPage): Transcript {
  return {
    sessionId: t.sessionId,
    running: t.running ?? '',
    queue: t.queue ?? [],
    pending: t.pending ?? [],
    turns: t.turns ?? [],
    items: (t.items ?? []).map((it) => normalizeItem(it, t.running ?? '')),
    first: t.first ?? 0,
    last: t.last ?? 0,
    more: Boolean(t.more),
  };
}

/** The number of the log entry a stored item starts at; 0 for one only seen live. */
export const itemSeq = (it: Item): number => it.seq ?? 0;

function olderTurns(older: Transcript['turns'], newer: Transcript['turns']): Transcript['turns'] {
  const known = new Set(newer.map((x) => x.id));
  return [...older.filter((x) => !known.has(x.id)), ...newer];
}

/**
 * An older page put before what is shown: the person scrolled up. Items the shown part already
 * holds (by their log entry) are not repeated.
 */
export function withOlder(t: Transcript, page: Transcript): Transcript {
  const from = t.first || Number.MAX_SAFE_INTEGER;
  const older = page.items.filter((it) => itemSeq(it) > 0 && itemSeq(it) < from);
  return { ...t, items: [...older, ...t.items], turns: olderTurns(page.turns, t.turns), first: page.first, more: page.more };
}

/**
 * A reload of the newest page keeps the older pages the person had scrolled to: the log only
 * grows at its end, so what lies before the new page is what was shown.
 */
export function keepOlder(before: Transcript, fresh: Transcript): Transcript {
  if (!before.first || !fresh.first || before.first >= fresh.first) return fresh;
  const older = before.items.filter((it) => itemSeq(it) > 0 && itemSeq(it) < fresh.first!);
  return { ...fresh, items: [...older, ...fresh.items], turns: olderTurns(before.turns, fresh.turns), first: before.first, more: before.more };
}

/** The server leaves out empty fields; the views read every field. */
/**
 * Reads one wire item as the item of its type: Go leaves out the empty fields (omitempty), the
 * view wants them. A type this build does not know is shown as unreadable, never skipped.
 */
function normalizeItem(it: G.Item, running: string): Item {
  const out = itemOf(it, running);
  return it.seq ? { ...out, seq: it.seq } : out;
}

function itemOf(it: G.Item, running: string): Item {
  const turnId = it.turnId ?? '';
  switch (it.type) {
    case 'tool':
      return {
        type: 'tool',
        turnId,
        callId: it.callId ?? '',
        name: it.name ?? '',
        input: it.input ?? {},
        output: it.output ?? '',
        isError: Boolean(it.isError),
        verdict: it.verdict ?? '',
        layer: it.layer ?? '',
        code: it.code ?? '',
        approved: it.approved ?? '',
        display: it.display,
        answered: it.answered,
        // A stored call is finished unless its turn still runs.
        done: it.turnId !== running || Boolean(it.isError) || Boolean(it.output),
      };
    case 'direct':
      return {
        type: 'direct',
        turnId: '',
        callId: it.callId ?? '',
        name: it.name ?? '',
        input: it.input,
        output: it.output ?? '',
        isError: Boolean(it.isError),
        code: it.code ?? '',
        display: it.display,
      };
    case 'user':
      return { type: 'user', turnId, text: it.text ?? '', steer: Boolean(it.steer) };
    case 'nudge':
      return { type: 'nudge', turnId, text: it.text ?? '' };
    case 'assistant':
      return { type: 'assistant', turnId, text: it.text ?? '' };
    case 'mode':
      return {
        type: 'mode',
        turnId,
        interactionMode: it.interactionMode ?? 'smart',
        executionOverride: it.executionOverride ?? '',
        ...(it.modeReason ? { reason: it.modeReason } : {}),
      };
    case 'cleared':
      return { type: 'cleared', turnId: '' };
    case 'permission':
      return { type: 'permission', turnId, permissionMode: it.permissionMode ?? '' };
    case 'checkpoint':
      return { type: 'checkpoint', turnId, callId: it.callId, checkpoint: { reason: '', ...it.checkpoint, changed: it.checkpoint?.changed ?? [] } };
    case 'restore':
      if (!it.restore) break;
      return { type: 'restore', turnId: '', restore: { ...it.restore, changed: it.restore.changed ?? [] } };
    case 'review':
      if (!it.review) break;
      return { type: 'review', turnId: '', review: { ...it.review, hunks: it.review.hunks ?? [] } };
    case 'compacted':
      if (!it.compacted) break;
      return { type: 'compacted', turnId, seq: it.seq, compacted: it.compacted };
    case 'worktreeCopied':
      if (!it.worktreeCopied) break;
      return { type: 'worktreeCopied', turnId: '', copied: { ...it.worktreeCopied, files: it.worktreeCopied.files ?? [], skipped: it.worktreeCopied.skipped ?? [] } };
    case 'worktreeSetup':
      if (!it.worktreeSetup) break;
      return { type: 'worktreeSetup', turnId: '', setup: it.worktreeSetup };
    case 'unreadable':
      return { type: 'unreadable', turnId: '', seq: it.seq ?? 0, logType: it.logType ?? '' };
  }
  return { type: 'unreadable', turnId: '', seq: it.seq ?? 0, logType: it.type };
}

const hasUserItem = (items: Item[], turnId: string) => items.some((i) => i.type === 'user' && i.turnId === turnId && !i.steer);

/** Puts the message first among its turn's items (the turn's events may have beaten the send's answer). */
function insertUser(items: Item[], turnId: string, text: string): Item[] {
  const at = items.findIndex((i) => i.turnId === turnId);
  const user: Item = { type: 'user', turnId, text, steer: false };
  return at < 0 ? [...items, user] : [...items.slice(0, at), user, ...items.slice(at)];
}

/**
 * Where the newest call with this id stands, or -1. Searched from the end: a call's events come
 * while it is among the last items, so a turn of a thousand calls is not a thousand full scans.
 */
function lastToolAt(items: Item[], callId: string): number {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i]!;
    if (it.type === 'tool' && it.callId === callId) return i;
  }
  return -1;
}

/** The items with the call's newest card changed by f (a repeated id belongs to its latest call). */
function updateTool(items: Item[], callId: string, f: (t: ToolItem) => ToolItem): Item[] {
  const at = lastToolAt(items, callId);
  if (at < 0) return items;
  const next = items.slice();
  next[at] = f(items[at] as ToolItem);
  return next;
}

function upsertTurn(turns: Turn[], turn: Turn): Turn[] {
  return turns.some((t) => t.id === turn.id) ? turns.map((t) => (t.id === turn.id ? { ...t, ...turn } : t)) : [...turns, turn];
}

/**
 * The stream's seq map with this delta applied, or null for a delta that is stale: one the
 * transcript has already seen (a repeat, or one overtaken by a later one of its stream). A delta
 * without seq is always taken.
 */
function freshDelta(t: Transcript, e: { turnId: string; callId?: string; seq?: number }): Record<string, number> | null {
  const seen = t.deltaSeq ?? {};
  if (typeof e.seq !== 'number') return seen;
  const key = `${e.turnId}/${e.callId ?? ''}`;
  if (e.seq <= (seen[key] ?? 0)) return null;
  return { ...seen, [key]: e.seq };
}

/** The newest progress; a message stays until the server sends another (most send one now and then). */
function progressOf(before: ToolItem['progress'], e: ToolProgressEvent): ToolProgress {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
  return {
    progress: num(e.progress),
    total: num(e.total),
    message: typeof e.message === 'string' && e.message ? e.message : (before?.message ?? ''),
  };
}

const turnOver = (t: Transcript, turnId: string) => t.turns.some((x) => x.id === turnId && x.status !== 'running');

/** Applies one server broadcast (or our own send) to a session's transcript. Pure. */
export function transcriptReducer(t: Transcript, a: TranscriptAction): Transcript {
  switch (a.type) {
    case 'load':
      return { ...normalizeTranscript(a.transcript), deltaSeq: t.deltaSeq };
    case 'turn.started': {
      const { e } = a;
      const turn: Turn = {
        id: e.turnId,
        prompt: e.prompt ?? '',
        executionMode: e.executionMode,
        reasonKey: e.reasonKey,
        reasonArgs: e.reasonArgs,
        status: 'running',
        error: '',
        temporary: false,
        createdAt: t.turns.find((x) => x.id === e.turnId)?.createdAt ?? a.at,
      };
      const items = e.prompt && !hasUserItem(t.items, e.turnId) ? insertUser(t.items, e.turnId, e.prompt) : t.items;
      return { ...t, running: e.turnId, turns: upsertTurn(t.turns, turn), items };
    }
    case 'turn.delta': {
      const deltaSeq = freshDelta(t, a.e);
      if (!deltaSeq || turnOver(t, a.e.turnId)) return t;
      const last = t.items[t.items.length - 1];
      if (last?.type === 'assistant' && last.turnId === a.e.turnId) {
        return { ...t, deltaSeq, items: [...t.items.slice(0, -1), { ...last, text: last.text + a.e.text }] };
      }
      return { ...t, deltaSeq, items: [...t.items, { type: 'assistant', turnId: a.e.turnId, text: a.e.text }] };
    }
    case 'turn.ended': {
      const { e } = a;
      const turns = t.turns.map((x) => (x.id === e.turnId ? { ...x, status: e.status, error: e.error ?? '', failure: e.failure } : x));
      const items = t.items.map((i) => (i.type === 'tool' && i.turnId === e.turnId && !i.done ? { ...i, done: true } : i));
      return { ...t, running: t.running === e.turnId ? '' : t.running, turns, items };
    }
    case 'tool.call': {
      const { e } = a;
      const fields = {
        name: e.name,
        input: e.input,
        verdict: e.verdict,
        layer: e.layer ?? '',
        code: e.code ?? '',
        reasonKey: e.reasonKey ?? '',
        summary: e.summary ?? '',
      };
      if (lastToolAt(t.items, e.callId) >= 0) {
        return { ...t, items: updateTool(t.items, e.callId, (x) => ({ ...x, ...fields })) };
      }
      const item: ToolItem = { type: 'tool', turnId: e.turnId, callId: e.callId, output: '', isError: false, approved: '', done: false, ...fields };
      return { ...t, items: [...t.items, item] };
    }
    case 'tool.output': {
      const deltaSeq = freshDelta(t, a.e);
      if (!deltaSeq) return t;
      // Output after the call's result is stale: the result holds the whole output.
      return { ...t, deltaSeq, items: updateTool(t.items, a.e.callId ?? '', (x) => (x.done ? x : { ...x, output: x.output + a.e.text })) };
    }
    case 'tool.progress': {
      const { e } = a;
      // Progress after the call's result is stale: the bar ends with the call.
      return { ...t, items: updateTool(t.items, e.callId, (x) => (x.done ? x : { ...x, progress: progressOf(x.progress, e) })) };
    }
    case 'tool.result': {
      const { e } = a;
      return {
        ...t,
        items: updateTool(t.items, e.callId, (x) => ({
          ...x,
          output: e.output ?? x.output,
          isError: Boolean(e.isError),
          approved: e.approved ?? x.approved,
          display: e.display,
          answered: Boolean(e.answered),
          done: true,
          progress: null,
        })),
      };
    }
    case 'tool.direct': {
      const { e } = a;
      if (t.items.some((i) => i.type === 'direct' && i.callId === e.callId)) return t;
      return {
        ...t,
        items: [
          ...t.items,
          {
            type: 'direct',
            turnId: '',
            callId: e.callId,
            name: e.name,
            input: e.input,
            output: e.output,
            isError: e.isError,
            code: e.code ?? '',
            display: e.display,
          },
        ],
      };
    }
    case 'session.mode': {
      const last = [...t.items].reverse().find((i) => i.type === 'mode');
      if (last && last.interactionMode === a.e.interactionMode && last.executionOverride === a.e.executionOverride) return t;
      return {
        ...t,
        items: [
          ...t.items,
          {
            type: 'mode',
            turnId: t.running,
            interactionMode: a.e.interactionMode,
            executionOverride: a.e.executionOverride ?? '',
            ...(a.e.reason ? { reason: a.e.reason } : {}),
          },
        ],
      };
    }
    case 'session.permission':
      return { ...t, items: [...t.items, { type: 'permission', turnId: t.running ?? '', permissionMode: a.e.permissionMode }] };
    case 'queue.changed':
      return { ...t, queue: a.e.items ?? [] };
    case 'context.cleared':
      return { ...t, items: [...t.items, { type: 'cleared', turnId: '' }] };
    case 'checkpoint.created': {
      const { e } = a;
      // A snapshot before a call shows nothing of its own; the one after it lists the changes.
      if (e.reason === 'before_tool' && !e.error) return t;
      return { ...t, items: [...t.items, { type: 'checkpoint', turnId: e.turnId ?? '', callId: e.callId, checkpoint: e }] };
    }
    case 'sent': {
      const { ack, text } = a;
      if (ack.cleared || ack.queued || !ack.turnId) return t;
      if (ack.steered) return { ...t, items: [...t.items, { type: 'user', turnId: ack.turnId, text, steer: true }] };
      return hasUserItem(t.items, ack.turnId) ? t : { ...t, items: insertUser(t.items, ack.turnId, text) };
    }
  }
}

/** One row of the rendered transcript: an item, or where a turn begins (its mode chip) and ends (its status). */
export type Block =
  | { kind: 'item'; item: Item; key: string }
  | { kind: 'turn-start'; turn: Turn; key: string }
  | { kind: 'turn-end'; turn: Turn; key: string };

/**
 * Orders the transcript for display: each turn's chip follows the message that started it (or
 * leads its first item), and its status follows its last item. Turns without items yet get both
 * at the end. Every block has a key that stays the same while the transcript grows at either end
 * (see itemKeys), so the virtualized view keeps its rows.
 */
export function groupTranscript(t: Pick<Transcript, 'items' | 'turns' | 'keys'>): Block[] {
  const keys = itemKeys(t.items, t.keys);
  const keyOf = new Map(t.items.map((it, i) => [it, keys[i]!]));
  return groupItems({ items: collapseModes(t.items), turns: t.turns }, (it) => keyOf.get(it)!);
}

/** Where each item stands: its turn, its type, and its place among the items of both. */
function slots(items: Item[]): string[] {
  const count = new Map<string, number>();
  return items.map((it) => {
    const group = `${it.turnId}/${it.type}`;
    const k = count.get(group) ?? 0;
    count.set(group, k + 1);
    return `${group}/${k}`;
  });
}

/**
 * A display key per item, stable as the transcript grows: a tool call by its id, a stored item
 * by its log entry (older pages put before it do not move it), a live one (not read from the log
 * yet) by its place among its turn's items of its type (new items come after it). A stored item
 * that replaced a live one on a reload keeps the live one's key (keys, see carryLiveKeys).
 */
export function itemKeys(items: Item[], keys: Transcript['keys'] = {}): string[] {
  const at = slots(items);
  const used = new Set<string>();
  return items.map((it, i) => {
    let key: string;
    if (it.type === 'tool' || it.type === 'direct') key = `${it.type}-${it.callId}`;
    else if (itemSeq(it) > 0) key = keys[itemSeq(it)] ?? `seq-${itemSeq(it)}`;
    else key = `live-${at[i]}`;
    // Never two rows with one key, whatever the server sent (a repeated call id).
    if (used.has(key)) key = `${key}#${i}`;
    used.add(key);
    return key;
  });
}

/**
 * After a reload (a turn ended), the stored items that replace the live ones shown until now
 * inherit their keys: the same turn, type and place among the turn's items of that type.
 */
export function carryLiveKeys(before: Transcript, after: Transcript): Transcript {
  const beforeAt = slots(before.items);
  const live = new Set(before.items.flatMap((it, i) => (itemSeq(it) === 0 && it.type !== 'tool' && it.type !== 'direct' ? [beforeAt[i]!] : [])));
  if (live.size === 0) return before.keys ? { ...after, keys: before.keys } : after;
  const keys = { ...before.keys };
  slots(after.items).forEach((slot, i) => {
    const seq = itemSeq(after.items[i]!);
    if (seq > 0 && live.has(slot) && keys[seq] === undefined) keys[seq] = `live-${slot}`;
  });
  return { ...after, keys };
}

const samePref = (a: ModeItem, b: ModeItem) => a.interactionMode === b.interactionMode && a.executionOverride === b.executionOverride;

/**
 * Mode switches in a row — the person trying the selector before a message — are one change: only
 * the last shows, and not at all when it lands back on the mode already in force.
 */
export function collapseModes(items: Item[]): Item[] {
  const out: Item[] = [];
  let inForce: ModeItem | null = null;
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    if (it.type !== 'mode') {
      out.push(it);
      continue;
    }
    if (items[i + 1]?.type === 'mode') continue;
    if (!inForce || !samePref(inForce, it)) out.push(it);
    inForce = it;
  }
  return out;
}

function groupItems(t: Pick<Transcript, 'items' | 'turns'>, keyOf: (it: Item) => string): Block[] {
  const turns = new Map(t.turns.map((x) => [x.id, x]));
  const lastIndex = new Map<string, number>();
  t.items.forEach((it, i) => it.turnId && lastIndex.set(it.turnId, i));
  const started = new Set<string>();
  const blocks: Block[] = [];
  t.items.forEach((item, i) => {
    const key = keyOf(item);
    const turn = item.turnId ? turns.get(item.turnId) : undefined;
    const open = turn && !started.has(turn.id);
    if (open && item.type !== 'user') {
      started.add(turn.id);
      blocks.push({ kind: 'turn-start', turn, key: `start-${turn.id}` });
    }
    blocks.push({ kind: 'item', item, key });
    if (open && item.type === 'user') {
      started.add(turn.id);
      blocks.push({ kind: 'turn-start', turn, key: `start-${turn.id}` });
    }
    if (turn && lastIndex.get(turn.id) === i) blocks.push({ kind: 'turn-end', turn, key: `end-${turn.id}` });
  });
  for (const turn of t.turns) {
    if (started.has(turn.id)) continue;
    blocks.push({ kind: 'turn-start', turn, key: `start-${turn.id}` }, { kind: 'turn-end', turn, key: `end-${turn.id}` });
  }
  return blocks;
}

/** What an approved plan runs as: Chat, the chosen override, else execute (the Go side's afterPlan). */
function afterPlan(m: Pick<ModeItem, 'interactionMode' | 'executionOverride'>): ExecutionMode {
  if (m.interactionMode === 'chat') return 'chat';
  return m.executionOverride || 'execute';
}

/**
 * What the running turn runs as now. A turn starts in its resolved mode; a change inside it (a plan
 * approved) is a mode item after its message, so after a reload too the label tells the truth of
 * the turn at this moment, not of its start.
 */
export function runningMode(t: Pick<Transcript, 'running' | 'turns' | 'items'>): ExecutionMode | null {
  const turn = t.turns.find((x) => x.id === t.running);
  if (!turn) return null;
  const start = t.items.findIndex((i) => i.type === 'user' && i.turnId === turn.id && !i.steer);
  let mode = turn.executionMode;
  if (start < 0) return mode;
  for (const it of t.items.slice(start + 1)) if (it.type === 'mode') mode = afterPlan(it);
  return mode;
}
