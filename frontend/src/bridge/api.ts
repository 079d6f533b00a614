import { transport } from './select';
import type { Unsubscribe } from './transport';
import type { CreateSessionRequest, Language, Session, Settings, SystemInfo } from './types';

/**
 * The typed app API. Components and stores use this; they never name a transport or a method
 * string. `getTransport` is injectable so tests can drive it with a fake.
 */
export function createApi(getTransport = transport) {
  const call = <T>(method: string, req?: object) => getTransport().call(method, req) as Promise<T>;
  const on =
    <T>(name: string) =>
    (cb: (data: T) => void): Unsubscribe =>
      getTransport().onEvent(name, (data) => cb(data as T));

  return {
    sessions: {
      list: () => call<Session[] | null>('Sessions.List').then((s) => s ?? []),
      create: (req: CreateSessionRequest = {}) => call<Session>('Sessions.Create', req),
      rename: (id: string, title: string) => call<Session>('Sessions.Rename', { id, title }),
      remove: (id: string) => call<null>('Sessions.Delete', { id }).then(() => undefined),
      onChanged: (cb: (sessions: Session[]) => void) =>
        on<Session[] | null>('sessions.changed')((s) => cb(s ?? [])),
    },
    settings: {
      get: () => call<Settings>('Settings.Get'),
      setLanguage: (language: Language) => call<Settings>('Settings.SetLanguage', { language }),
      onChanged: on<Settings>('settings.changed'),
    },
    system: {
      info: () => call<SystemInfo>('System.Info'),
    },
    /** Fires after the event stream recovered from a drop: refetch what may have been missed. */
    onReconnect: (cb: () => void): Unsubscribe => getTransport().onReconnect(cb),
  };
}

export type Api = ReturnType<typeof createApi>;
