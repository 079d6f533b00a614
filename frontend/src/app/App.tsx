import { useEffect, useMemo } from 'react';
import type { Api } from '../bridge';
import { createSettingsApi, type SettingsApi } from '../bridge/settingsApi';
import { createSessionsStore } from '../features/sessions/sessionsStore';
import { SettingsApiProvider } from '../features/settings/settingsApiContext';
import { createSettingsStore } from '../features/settings/settingsStore';
import { createFoldersApi, type FoldersApi } from '../features/workspace/foldersApi';
import { FoldersApiProvider } from '../features/workspace/foldersContext';
import { I18nProvider } from '../i18n/I18nProvider';
import { catalog } from '../i18n/locales';
import { makeT } from '../i18n/translate';
import { ErrorNotice } from '../ui/ErrorNotice';
import { Spinner } from '../ui/Spinner';
import { useStore } from '../ui/store';
import type { AppStores } from './boot';
import { Shell } from './Shell';

const pageSettingsApi = createSettingsApi();
const pageFoldersApi = createFoldersApi();

/**
 * Loads the settings (for the language), then shows the shell. The page passes the stores its
 * boot already started (main.tsx); without them (tests) the app makes and starts its own.
 */
export function App({
  api,
  settingsApi = pageSettingsApi,
  foldersApi = pageFoldersApi,
  stores,
}: {
  api: Api;
  settingsApi?: SettingsApi;
  foldersApi?: FoldersApi;
  stores?: AppStores;
}) {
  const own = useMemo(() => (stores ? null : { sessions: createSessionsStore(api), settings: createSettingsStore(api) }), [api, stores]);
  const { sessions, settings } = stores ?? own!;
  const { status, language, error } = useStore(settings);

  useEffect(() => own?.settings.start(), [own]);
  useEffect(() => own?.sessions.start(), [own]);

  if (status === 'loading') {
    return (
      <div className="splash" data-testid="app-loading">
        <Spinner label={makeT(catalog, language)('shell.state.loading')} size={24} />
      </div>
    );
  }

  return (
    <SettingsApiProvider value={settingsApi}>
      <FoldersApiProvider value={foldersApi}>
        <I18nProvider lang={language}>
          {status === 'error' ? (
            <div className="splash" data-testid="app-error">
              <ErrorNotice error={error} onRetry={() => void settings.load()} />
            </div>
          ) : (
            <Shell api={api} sessions={sessions} settings={settings} />
          )}
        </I18nProvider>
      </FoldersApiProvider>
    </SettingsApiProvider>
  );
}
