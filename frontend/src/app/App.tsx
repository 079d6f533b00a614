import { useEffect, useMemo } from 'react';
import type { Api } from '../bridge';
import { createSettingsApi, type SettingsApi } from '../bridge/settingsApi';
import { createSessionsStore } from '../features/sessions/sessionsStore';
import { SettingsApiProvider } from '../features/settings/settingsApiContext';
import { createSettingsStore } from '../features/settings/settingsStore';
import { I18nProvider } from '../i18n/I18nProvider';
import { catalog } from '../i18n/locales';
import { makeT } from '../i18n/translate';
import { ErrorNotice } from '../ui/ErrorNotice';
import { Spinner } from '../ui/Spinner';
import { useStore } from '../ui/store';
import { Shell } from './Shell';

const pageSettingsApi = createSettingsApi();

/** Loads the settings (for the language), then shows the shell. */
export function App({ api, settingsApi = pageSettingsApi }: { api: Api; settingsApi?: SettingsApi }) {
  const sessions = useMemo(() => createSessionsStore(api), [api]);
  const settings = useMemo(() => createSettingsStore(api), [api]);
  const { status, language, error } = useStore(settings);

  useEffect(() => settings.start(), [settings]);
  useEffect(() => sessions.start(), [sessions]);

  if (status === 'loading') {
    return (
      <div className="splash" data-testid="app-loading">
        <Spinner label={makeT(catalog, language)('shell.state.loading')} size={24} />
      </div>
    );
  }

  return (
    <SettingsApiProvider value={settingsApi}>
      <I18nProvider lang={language}>
        {status === 'error' ? (
          <div className="splash" data-testid="app-error">
            <ErrorNotice error={error} onRetry={() => void settings.load()} />
          </div>
        ) : (
          <Shell api={api} sessions={sessions} settings={settings} />
        )}
      </I18nProvider>
    </SettingsApiProvider>
  );
}
