import type { Api, Language, Unsubscribe } from '../../bridge';
import { LANGUAGES } from '../../bridge';
import { createStore } from '../../ui/store';

export interface SettingsState {
  status: 'loading' | 'ready' | 'error';
  language: Language;
  /** Why loading failed (status 'error'). */
  error: unknown;
}

function asLanguage(v: unknown): Language {
  return LANGUAGES.includes(v as Language) ? (v as Language) : 'en';
}

/** The person's settings, loaded by request and kept current by `settings.changed`. */
export function createSettingsStore(api: Api) {
  const store = createStore<SettingsState>({ status: 'loading', language: 'en', error: null });

  async function load() {
    store.set((s) => ({ ...s, status: s.status === 'ready' ? 'ready' : 'loading', error: null }));
    try {
      const settings = await api.settings.get();
      store.set({ status: 'ready', language: asLanguage(settings.language), error: null });
    } catch (error) {
      // A failed refresh keeps the language already in force.
      store.set((s) => (s.status === 'ready' ? s : { ...s, status: 'error', error }));
    }
  }

  return {
    ...store,
    load,
    start(): Unsubscribe {
      const offs = [
        api.settings.onChanged((s) => store.set((prev) => ({ ...prev, language: asLanguage(s.language) }))),
        api.onReconnect(() => void load()),
      ];
      void load();
      return () => offs.forEach((off) => off());
    },
    /** Persists the language and applies what the server stored. */
    async setLanguage(language: Language): Promise<void> {
      const saved = await api.settings.setLanguage(language);
      store.set((s) => ({ ...s, language: asLanguage(saved.language) }));
    },
  };
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
