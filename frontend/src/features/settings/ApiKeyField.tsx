import { useId, useState, type FormEvent } from 'react';
import type { KeyProvider, KeySource } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';
import { KEY_ENV, PROVIDER_NAMES } from './presets';
import { useAction } from './useAction';

/**
 * One provider's API key: where the current key comes from, a password field that saves to the OS
 * keyring, and removing a keyring key. The key itself is never shown or read back.
 */
export function ApiKeyField({
  provider,
  source,
  onSave,
  onDelete,
}: {
  provider: KeyProvider;
  source: KeySource;
  onSave: (key: string) => Promise<unknown>;
  onDelete: () => Promise<unknown>;
}) {
  const t = useT();
  const id = useId();
  const [key, setKey] = useState('');
  const save = useAction(onSave);
  const remove = useAction(onDelete);
  const busy = save.pending || remove.pending;
  const args = { Provider: PROVIDER_NAMES[provider], Env: KEY_ENV[provider] };
  const error = save.error ?? remove.error;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!key.trim()) return;
    remove.clearError();
    if (await save.run(key.trim())) setKey('');
  };

  return (
    <form className="setting-row key-row" onSubmit={(e) => void submit(e)} data-testid={`key-${provider}`}>
      <div className="setting-row__label">
        <label htmlFor={`${id}-key`} className="setting-row__title">
          {t('settings.keys.label', args)}
        </label>
        <p className="setting-row__help key-status" data-testid={`key-${provider}-status`} data-source={source || 'none'}>
          <span className={`status-dot status-dot--${source ? 'on' : 'off'}`} aria-hidden="true" />
          {t(`settings.keys.source.${source || 'none'}`, args)}
        </p>
      </div>
      <div className="setting-row__control field-inline">
        <input
          id={`${id}-key`}
          type="password"
          className={`input input--key${error !== null ? ' is-invalid' : ''}`}
          value={key}
          autoComplete="off"
          spellCheck={false}
          placeholder={t(source === 'keyring' ? 'settings.keys.replacePlaceholder' : 'settings.keys.placeholder')}
          aria-invalid={error !== null}
          aria-describedby={error !== null ? `${id}-error` : undefined}
          data-testid={`key-${provider}-input`}
          onChange={(e) => {
            setKey(e.target.value);
            save.clearError();
          }}
        />
        <button type="submit" className="btn btn--small" disabled={busy || !key.trim()} data-testid={`key-${provider}-save`}>
          {t('settings.action.save')}
        </button>
        {source === 'keyring' && (
          <button
            type="button"
            className="btn btn--small btn--quiet-danger"
            disabled={busy}
            aria-label={t('settings.keys.removeNamed', args)}
            data-testid={`key-${provider}-remove`}
            onClick={() => {
              save.clearError();
              void remove.run();
            }}
          >
            {t('settings.keys.remove')}
          </button>
        )}
      </div>
      {error !== null && (
        <p className="field-error" id={`${id}-error`} role="alert" data-testid={`key-${provider}-error`}>
          {describeError(error, t)}
        </p>
      )}
    </form>
  );
}
