import type { SettingsView } from '../../bridge/generated';
import { useId, useState, type FormEvent } from 'react';
import { KEY_PROVIDERS, type KeyProvider } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';
import { PROVIDER_NAMES } from '../settings/presets';
import { Segmented } from '../settings/Segmented';
import { useSettingsApi } from '../settings/settingsApiContext';
import { useAction } from '../settings/useAction';
import { KeyIcon } from '../../ui/icons';
import { PathCard } from './PathCard';

/** Path one: paste an Anthropic or OpenAI key; it goes to the OS keyring and that provider is chosen. */
export function KeyPath({ onSaved }: { onSaved: (settings: SettingsView) => void }) {
  const t = useT();
  const api = useSettingsApi();
  const id = useId();
  const [provider, setProvider] = useState<KeyProvider>('anthropic');
  const [key, setKey] = useState('');
  const save = useAction(async () => {
    await api.settings.saveKey(provider, key.trim());
    onSaved(await api.settings.setProvider({ kind: provider, model: '', baseUrl: '' }));
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (key.trim() && (await save.run())) setKey('');
  };

  return (
    <PathCard id="key" icon={<KeyIcon />} title={t('onboarding.key.title')} text={t('onboarding.key.text')}>
      <form className="path-form" onSubmit={(e) => void submit(e)}>
        <Segmented
          label={t('onboarding.key.provider')}
          options={KEY_PROVIDERS.map((p) => ({ value: p, label: PROVIDER_NAMES[p] }))}
          value={provider}
          onChange={(p) => {
            setProvider(p);
            save.clearError();
          }}
          testId="onboarding-key-provider"
        />
        <label className="visually-hidden" htmlFor={`${id}-key`}>
          {t('settings.keys.label', { Provider: PROVIDER_NAMES[provider] })}
        </label>
        <input
          id={`${id}-key`}
          type="password"
          className={`input${save.error !== null ? ' is-invalid' : ''}`}
          value={key}
          autoComplete="off"
          spellCheck={false}
          placeholder={t('onboarding.key.placeholder', { Provider: PROVIDER_NAMES[provider] })}
          aria-invalid={save.error !== null}
          aria-describedby={save.error !== null ? `${id}-error` : `${id}-note`}
          data-testid="onboarding-key-input"
          onChange={(e) => {
            setKey(e.target.value);
            save.clearError();
          }}
        />
        {save.error !== null ? (
          <p className="field-error" id={`${id}-error`} role="alert" data-testid="onboarding-key-error">
            {describeError(save.error, t)}
          </p>
        ) : (
          <p className="path-form__note" id={`${id}-note`}>
            {t('onboarding.key.note')}
          </p>
        )}
        <button
          type="submit"
          className={`btn path-card__action${key.trim() ? ' btn--primary' : ''}`}
          disabled={!key.trim() || save.pending}
          data-testid="onboarding-key-save"
        >
          {t('onboarding.key.save')}
        </button>
      </form>
    </PathCard>
  );
}
