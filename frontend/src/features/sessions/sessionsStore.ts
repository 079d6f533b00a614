import type { Api, Session, SessionsChanged, Unsubscribe } from '../../bridge';
import { createStore } from '../../ui/store';
import { onePageAtATime } from '../../ui/paging';
import { drafts } from '../drafts/draftStore';
import { applyState, mergeList, mergeSession, nextUnread } from './sessionState';

export interface SessionsState {
  status: 'loading' | 'ready' | 'error';
  sessions: Session[];
  /** Why the list could not be loaded (status 'error'). */
  error: unknown;
  /** Sessions whose turn ended while the person looked elsewhere. */
  unread: string[];
  /** The cursor of the next page of the list ('' when every session is loaded). */
  next: string;
}

const time = (iso: string) => Date.parse(iso) || 0;

/** Newest updated first, as the server orders them (the sort is stable, so ties keep its order). */
export function sortSessions(list: Session[]): Session[] {
  return [...list].sort((a, b) => time(b.updatedAt) - time(a.updatedAt));
}

function upsert(list: Session[], s: Session): Session[] {
  return sortSessions([...list.filter((x) => x.id !== s.id), mergeSession(list.find((x) => x.id === s.id), s)]);
}

/** Takes in a sessions.changed broadcast: the changed sessions merged by id, the removed dropped. */
export function applyChanged(list: Session[], c: SessionsChanged): Session[] {
  const gone = new Set(c.removed);
  const kept = gone.size ? list.filter((x) => !gone.has(x.id)) : list;
  return c.sessions.reduce(upsert, kept === list && c.sessions.length === 0 ? list : sortSessions(kept));
}

/** A later page appended to what is loaded (a session seen twice keeps one place). */
function appendPage(list: Session[], page: Session[]): Session[] {
  return page.reduce(upsert, list);
}

/** Where unread marks survive a reload; injectable for tests. */
export interface UnreadStorage {
  load(): string[];
  save(ids: string[]): void;
}

const UNREAD_KEY = 'agentdesk.unread';

export const localUnread: UnreadStorage = {
  load() {
    try {
      const v: unknown = JSON.parse(window.localStorage.getItem(UNREAD_KEY) ?? '[]');
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  },
  save(ids) {
    try {
      window.localStorage.setItem(UNREAD_KEY, JSON.stringify(ids));
    } catch {
      // storage full or disabled: unread marks last for this page only
    }
  },
};

/**
 * The session list: loaded a page at a time (the first at start, the next as the person scrolls),
 * kept current by the `sessions.changed` broadcast of the sessions that changed,
 * patched by `session.state`, and updated directly with what our own requests return. The live
 * state of each session (running, waiting) keeps the newest report (see sessionState.ts).
 */
export function createSessionsStore(api: Api, storage: UnreadStorage = localUnread) {
  const store = createStore<SessionsState>({ status: 'loading', sessions: [], error: null, unread: storage.load(), next: '' });
  /** Scrolling asks for each page once. */
  const onePage = onePageAtATime();
  let viewing: string | null = null;
  /** Sessions deleted since the page opened, here or by another client: never looked up again. */
  const removed = new Set<string>();
  /** The first load, once started: what the page's first script waits for to know its first screen. */
  let firstLoad: Promise<void> | null = null;

  /** Every change of the list goes through here, so unread marks follow it. */
  function setSessions(f: (list: Session[]) => Session[], patch: Partial<SessionsState> = {}) {
    store.set((s) => {
      const sessions = f(s.sessions);
      const unread = nextUnread(s.unread, s.sessions, sessions, viewing);
      if (unread !== s.unread) storage.save(unread);
      if (sessions === s.sessions && unread === s.unread && Object.keys(patch).length === 0) return s;
      return { ...s, ...patch, sessions, unread };
    });
  }

  async function load() {
    store.set((s) => ({ ...s, status: s.status === 'ready' ? 'ready' : 'loading', error: null }));
    try {
      const page = await api.sessions.list();
      setSessions((prev) => sortSessions(mergeList(prev, page.sessions)), { status: 'ready', error: null, next: page.next });
    } catch (error) {
      store.set((s) => (s.status === 'ready' ? s : { ...s, status: 'error', sessions: [], error }));
    }
  }

  /** Loads the next page of the list, if there is one: the sidebar asks as the person scrolls. */
  function loadMore(): Promise<void> {
    const after = store.get().next;
    if (!after || store.get().status !== 'ready') return Promise.resolve();
    return onePage(() =>
      api.sessions.list(after).then((p) => {
        if (store.get().next !== after) return; // a reload started the list again meanwhile
        setSessions((prev) => appendPage(prev, p.sessions), { next: p.next });
      }),
    );
  }

  return {
    ...store,
    load,
    loadMore,
    /** Settles once the first load has (the list is ready or failed); at once before start. */
    firstLoaded: (): Promise<void> => firstLoad ?? Promise.resolve(),
    /** Subscribes to broadcasts and loads the list; returns the unsubscribe. */
    start(): Unsubscribe {
      const offs = [
        api.sessions.onChanged((c) => {
          c.removed.forEach((id) => {
            removed.add(id);
            drafts.dropSession(id);
          });
          setSessions((prev) => applyChanged(prev, c));
        }),
        api.sessions.onState((e) => setSessions((prev) => applyState(prev, e))),
        api.onReconnect(() => void load()),
      ];
      const loading = load();
      firstLoad ??= loading;
      return () => offs.forEach((off) => off());
    },
    /** The session the person looks at: it is read, and stays read while they look. */
    setViewing(id: string | null) {
      viewing = id;
      setSessions((list) => list);
    },
    /**
     * Reads a session the loaded pages do not hold (a link to it) into the list; false when it
     * cannot be read, and the link then shows the newest session.
     */
    async fetch(id: string): Promise<boolean> {
      if (removed.has(id)) return false;
      try {
        const found = await api.sessions.get(id);
        setSessions((list) => upsert(list, found));
        return true;
      } catch {
        return false;
      }
    },
    /** Takes in a session our own request returned (created, configured, forked). */
    upsert(session: Session) {
      setSessions((list) => upsert(list, session), { status: 'ready' });
    },
    async fork(id: string): Promise<Session> {
      const forked = await api.sessions.fork(id);
      setSessions((list) => upsert(list, forked), { status: 'ready' });
      return forked;
    },
    async rename(id: string, title: string): Promise<Session> {
      const renamed = await api.sessions.rename(id, title);
      setSessions((list) => upsert(list, renamed));
      return renamed;
    },
    async remove(id: string): Promise<void> {
      await api.sessions.remove(id);
      removed.add(id);
      drafts.dropSession(id);
      setSessions((list) => list.filter((x) => x.id !== id));
    },
  };
}

export type SessionsStore = ReturnType<typeof createSessionsStore>;
