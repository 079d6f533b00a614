import { KEY_PROVIDERS, type AppSettings, type ProviderChoice } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import { tOr } from '../composer/toolLabel';
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
      {settings.commandLine ? (
        <CommandLineProvider line={settings.commandLine} />
      ) : (
        <ProviderForm
          provider={settings.provider}
          onSave={async (choice: ProviderChoice) => store.apply(await api.settings.setProvider(choice))}
        />
      )}
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

/**
 * The provider the command line fixed (agentdesk serve --provider …): it runs every turn, so the
 * page shows it rather than the saved choice it stands in for, and offers no way to change it.
 */
function CommandLineProvider({ line }: { line: NonNullable<AppSettings['commandLine']> }) {
  const t = useT();
  const kind = tOr(t, `composer.provider.${line.kind}`, line.kind);
  return (
    <div className="field field--wide" data-testid="provider-command-line" data-kind={line.kind}>
      <dl className="facts">
        <dt>{t('settings.provider.kind')}</dt>
        <dd data-testid="provider-in-force">{line.model ? `${kind} · ${line.model}` : kind}</dd>
      </dl>
      <p className="field__help">{t('settings.provider.commandLine')}</p>
    </div>
  );
}
