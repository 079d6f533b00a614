/**
 * What the person was typing and has not sent yet: the message of each session and of the new
 * task, and the answer being written to a decision. Kept in localStorage so switching sessions
 * or reloading the page never loses it.
 *
 * A draft belongs to a session ('new' for the new task) and a scope within it ('message', or
 * 'decision:<id>'), so it can only ever come back where it was typed.
 */

/** The new-task composer's session: none exists until its first message is sent. */
export const NEW_TASK = 'new';

export const MESSAGE = 'message';
export const decisionScope = (decisionId: string) => `decision:${decisionId}`;
const DECISION_PREFIX = 'decision:';

interface Entry {
  session: string;
  scope: string;
  value: unknown;
  /** When it was last typed (ms since the epoch): the oldest go first when space runs out. */
  at: number;
}

type Stored = Record<string, Entry>;

export interface DraftStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface DraftOptions {
  storage?: DraftStorage | null;
  storageKey?: string;
  /** Typing writes at most this often. */
  delayMs?: number;
  /** A draft bigger than this (as JSON) is kept for this page only, not written. */
  maxEntryChars?: number;
  /** What all drafts together may take in storage; the oldest are dropped beyond it. */
  maxTotalChars?: number;
  maxEntries?: number;
  /** A draft untouched for this long is forgotten. */
  maxAgeMs?: number;
  now?: () => number;
}

const keyOf = (session: string, scope: string) => JSON.stringify([session, scope]);

/** Nothing worth keeping: an empty string, or nothing at all. */
const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

function parse(raw: string | null): Stored {
  if (!raw) return {};
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return {};
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
  const out: Stored = {};
  for (const [k, e] of Object.entries(data as Record<string, unknown>)) {
    if (!e || typeof e !== 'object') continue;
    const { session, scope, value, at } = e as Partial<Entry>;
    if (typeof session !== 'string' || typeof scope !== 'string' || typeof at !== 'number' || isEmpty(value)) continue;
    if (k !== keyOf(session, scope)) continue;
    out[k] = { session, scope, value, at };
  }
  return out;
}

function browserStorage(): DraftStorage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null; // storage disabled: drafts last for this page only
  }
}

export function createDraftStore(opts: DraftOptions = {}) {
  const {
    storage = browserStorage(),
    storageKey = 'agentdesk.drafts',
    delayMs = 300,
    maxEntryChars = 64_000,
    maxTotalChars = 512_000,
    maxEntries = 200,
    maxAgeMs = 30 * 24 * 3600_000,
    now = Date.now,
  } = opts;

  // Storage is read through on every get, so another window's drafts (and a cleared storage) are
  // seen; only what this page changed and has not written yet lives here.
  const pending = new Map<string, Entry | null>();
  // Drafts too big for storage still survive a session switch within this page.
  const memoryOnly = new Map<string, Entry>();
  let cache: { raw: string | null; data: Stored } = { raw: null, data: {} };
  let timer: ReturnType<typeof setTimeout> | null = null;

  function read(): Stored {
    let raw: string | null = null;
    try {
      raw = storage?.getItem(storageKey) ?? null;
    } catch {
      raw = null;
    }
    if (raw !== cache.raw) cache = { raw, data: parse(raw) };
    return cache.data;
  }

  function entry(session: string, scope: string): Entry | undefined {
    const k = keyOf(session, scope);
    if (pending.has(k)) return pending.get(k) ?? undefined;
    const e = memoryOnly.get(k) ?? read()[k];
    return e && now() - e.at <= maxAgeMs ? e : undefined;
  }

  function schedule() {
    if (timer !== null) return;
    timer = setTimeout(flush, delayMs);
  }

  function put(k: string, e: Entry | null) {
    pending.set(k, e);
    memoryOnly.delete(k);
    schedule();
  }

  /** Writes what changed now, merged into what storage holds (another window may have written). */
  function flush() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (pending.size === 0) return;
    const merged: Stored = { ...read() };
    for (const [k, e] of pending) {
      if (e) merged[k] = e;
      else delete merged[k];
    }
    pending.clear();
    const fresh = Object.entries(merged)
      .filter(([, e]) => now() - e.at <= maxAgeMs)
      .sort(([, a], [, b]) => b.at - a.at);
    const out: Stored = {};
    let total = 2;
    let count = 0;
    for (const [k, e] of fresh) {
      const size = JSON.stringify(e).length + k.length + 4;
      if (size > maxEntryChars || total + size > maxTotalChars || count >= maxEntries) {
        if (size > maxEntryChars) memoryOnly.set(k, e);
        continue;
      }
      out[k] = e;
      total += size;
      count++;
    }
    const raw = JSON.stringify(out);
    try {
      storage?.setItem(storageKey, raw);
      cache = { raw, data: out };
    } catch {
      // storage full or disabled: what was typed stays on the page until it is sent
      for (const [k, e] of Object.entries(out)) memoryOnly.set(k, e);
    }
  }

  function removeWhere(match: (e: Entry) => boolean) {
    const seen = new Map<string, Entry>([...Object.entries(read()), ...memoryOnly]);
    for (const [k, e] of pending) if (e) seen.set(k, e);
    for (const [k, e] of seen) if (match(e)) put(k, null);
  }

  return {
    /** The draft, or undefined when none is kept. */
    get(session: string, scope: string): unknown {
      return entry(session, scope)?.value;
    },
    /** A text draft, '' when none (or not text). */
    text(session: string, scope: string = MESSAGE): string {
      const v = entry(session, scope)?.value;
      return typeof v === 'string' ? v : '';
    },
    /** Keeps what is typed; an empty value forgets the draft. */
    set(session: string, scope: string, value: unknown) {
      const k = keyOf(session, scope);
      if (isEmpty(value)) {
        if (entry(session, scope) !== undefined) put(k, null);
        return;
      }
      put(k, { session, scope, value, at: now() });
    },
    clear(session: string, scope: string) {
      if (entry(session, scope) !== undefined) put(keyOf(session, scope), null);
    },
    /** The session was deleted: nothing typed in it can be sent any more. */
    dropSession(session: string) {
      removeWhere((e) => e.session === session);
    },
    /** Forgets the session's decision drafts other than the ones still waiting for an answer. */
    keepDecisions(session: string, pendingIds: readonly string[]) {
      const keep = new Set(pendingIds.map(decisionScope));
      removeWhere((e) => e.session === session && e.scope.startsWith(DECISION_PREFIX) && !keep.has(e.scope));
    },
    flush,
    /** Forgets what this page has not written yet (tests start from an empty store). */
    reset() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pending.clear();
      memoryOnly.clear();
      cache = { raw: null, data: {} };
    },
  };
}

export type DraftStore = ReturnType<typeof createDraftStore>;

/** The page's drafts. Written before the page goes away, so a reload right after typing keeps it. */
export const drafts: DraftStore = createDraftStore();

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => drafts.flush());
  window.addEventListener('beforeunload', () => drafts.flush());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') drafts.flush();
  });
}
