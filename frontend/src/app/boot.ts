import { createApi, type Api } from '../bridge';
import { createSettingsApi, type SettingsApi } from '../bridge/settingsApi';
import { createSessionsStore, type SessionsStore } from '../features/sessions/sessionsStore';
import { appSettingsStoreFor } from '../features/settings/appSettingsStore';
import { createSettingsStore, type SettingsStore } from '../features/settings/settingsStore';

/** The stores the first screen reads: the list of sessions and the language. */
export interface AppStores {
  sessions: SessionsStore;
  settings: SettingsStore;
}

export interface Boot extends AppStores {
  api: Api;
  settingsApi: SettingsApi;
}

/**
 * Starts what the first screen reads (the first page of sessions, the settings, the broadcasts
 * that keep them current) as soon as the page runs: main.tsx calls it before the app's code has
 * loaded, so the requests overlap its download and compilation instead of following the first
 * render. The stores are the app's own (App takes them as they are); they live as long as the page.
 */
export function startBoot(api: Api = createApi(), settingsApi: SettingsApi = createSettingsApi()): Boot {
  const sessions = createSessionsStore(api);
  const settings = createSettingsStore(api);
  settings.start();
  sessions.start();
  // The theme, the default permission and the provider: every part of the page reads this store,
  // which listens while anyone uses it; the page itself is its first user.
  appSettingsStoreFor(settingsApi).start();
  return { api, settingsApi, sessions, settings };
}
