import type { Api, Session, Unsubscribe } from '../../bridge';
import { createStore } from '../../ui/store';

export interface SessionsState {
  status: 'loading' | 'ready' | 'error';
  sessions: Session[];
  /** Why the list could not be loaded (status 'error'). */
  error: unknown;
}

const time = (iso: string) => Date.parse(iso) || 0;

/** Newest updated first, as the server orders them (the sort is stable, so ties keep its order). */
export function sortSessions(list: Session[]): Session[] {
  return [...list].sort((a, b) => time(b.updatedAt) - time(a.updatedAt));
}

function upsert(list: Session[], s: Session): Session[] {
  return sortSessions([...list.filter((x) => x.id !== s.id), s]);
}

/**
 * The session list: loaded by request, replaced wholesale by the `sessions.changed` broadcast, and
 * updated directly with what our own requests return.
 */
export function createSessionsStore(api: Api) {
  const store = createStore<SessionsState>({ status: 'loading', sessions: [], error: null });

  async function load() {
    store.set((s) => ({ ...s, status: s.status === 'ready' ? 'ready' : 'loading', error: null }));
    try {
      const sessions = await api.sessions.list();
      store.set({ status: 'ready', sessions: sortSessions(sessions), error: null });
    } catch (error) {
      store.set((s) => (s.status === 'ready' ? s : { status: 'error', sessions: [], error }));
    }
  }

  return {
    ...store,
    load,
    /** Subscribes to broadcasts and loads the list; returns the unsubscribe. */
    start(): Unsubscribe {
      const offs = [
        api.sessions.onChanged((sessions) =>
          store.set({ status: 'ready', sessions: sortSessions(sessions), error: null }),
        ),
        api.onReconnect(() => void load()),
      ];
      void load();
      return () => offs.forEach((off) => off());
    },
    /** Takes in a session our own request returned (created, configured, forked). */
    upsert(session: Session) {
      store.set((s) => ({ ...s, status: 'ready', sessions: upsert(s.sessions, session) }));
    },
    async fork(id: string): Promise<Session> {
      const forked = await api.sessions.fork(id);
      store.set((s) => ({ ...s, status: 'ready', sessions: upsert(s.sessions, forked) }));
      return forked;
    },
    async rename(id: string, title: string): Promise<Session> {
      const renamed = await api.sessions.rename(id, title);
      store.set((s) => ({ ...s, sessions: upsert(s.sessions, renamed) }));
      return renamed;
    },
    async remove(id: string): Promise<void> {
      await api.sessions.remove(id);
      store.set((s) => ({ ...s, sessions: s.sessions.filter((x) => x.id !== id) }));
    },
  };
}

export type SessionsStore = ReturnType<typeof createSessionsStore>;
