import { KEY_PROVIDERS, type AppSettings, type ProviderChoice } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import { ApiKeyField } from './ApiKeyField';
import type { AppSettingsStore } from './appSettingsStore';
import { ProviderForm } from './ProviderForm';
import { SettingsSection } from './SettingsSection';
import { useSettingsApi } from './settingsApiContext';

/** The model the agent talks to, and the API keys (kept in the OS keyring, never in the database). */
export function ProvidersSection({ settings, store }: { settings: AppSettings; store: AppSettingsStore }) {
  const t = useT();
  const api = useSettingsApi();
  return (
    <SettingsSection
      id="providers"
      title={t('settings.provider.title')}
      description={t('settings.provider.description')}
      testId="providers-section"
    >
      <ProviderForm
        provider={settings.provider}
        onSave={async (choice: ProviderChoice) => store.apply(await api.settings.setProvider(choice))}
      />
      {KEY_PROVIDERS.map((p) => (
        <ApiKeyField
          key={p}
          provider={p}
          source={settings.provider.keys[p]}
          onSave={async (key) => store.apply(await api.settings.saveKey(p, key))}
          onDelete={async () => store.apply(await api.settings.deleteKey(p))}
        />
      ))}
    </SettingsSection>
  );
}
