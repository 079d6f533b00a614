import { useId, useState, type FormEvent } from 'react';
import type { ProviderChoice, ProviderKind, ProviderSettings } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';
import { LOCAL_PRESETS } from './presets';
import { useAction } from './useAction';

// The offline demo is no choice here: it runs only in its own sessions, started from the
// onboarding panel, and never as the provider of other turns.
const KINDS: readonly ProviderKind[] = ['anthropic', 'openai'];

/** A provider saved as "demo" by earlier builds reads as none, as it does for every turn. */
const choiceOf = (p: ProviderSettings): ProviderChoice => ({ kind: p.kind === 'demo' ? '' : p.kind, model: p.model, baseUrl: p.baseUrl });

const same = (a: ProviderChoice, b: ProviderChoice) =>
  a.kind === b.kind && a.model.trim() === b.model.trim() && a.baseUrl.trim() === b.baseUrl.trim();

/**
 * Which provider and model the agent uses, and for OpenAI-compatible servers the base URL (with
 * presets for Ollama and LM Studio). Edits stay local until saved; others' changes show meanwhile.
 */
export function ProviderForm({
  provider,
  onSave,
}: {
  provider: ProviderSettings;
  onSave: (choice: ProviderChoice) => Promise<unknown>;
}) {
  const t = useT();
  const id = useId();
  const [draft, setDraft] = useState<ProviderChoice | null>(null);
  const save = useAction(onSave);
  const current = choiceOf(provider);
  const shown = draft ?? current;
  const dirty = draft !== null && !same(draft, current);

  const edit = (patch: Partial<ProviderChoice>) => {
    save.clearError();
    setDraft({ ...shown, ...patch });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!dirty) return;
    const choice = { kind: shown.kind, model: shown.model.trim(), baseUrl: shown.kind === 'openai' ? shown.baseUrl.trim() : '' };
    if (await save.run(choice)) setDraft(null);
  };

  return (
    <form className="provider-form" onSubmit={(e) => void submit(e)} data-testid="provider-form">
      <div className="field">
        <label className="field__label" htmlFor={`${id}-kind`}>
          {t('settings.provider.kind')}
        </label>
        <select
          id={`${id}-kind`}
          className="select"
          value={shown.kind}
          data-testid="provider-kind"
          onChange={(e) => edit({ kind: e.target.value as ProviderKind })}
        >
          {shown.kind === '' && (
            <option value="" disabled>
              {t('settings.provider.kind.none')}
            </option>
          )}
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`settings.provider.kind.${k}`)}
            </option>
          ))}
        </select>
      </div>

      <div className="field">
        <label className="field__label" htmlFor={`${id}-model`}>
          {t('settings.provider.model')}
        </label>
        <input
          id={`${id}-model`}
          className="input mono"
          value={shown.model}
          spellCheck={false}
          autoComplete="off"
          placeholder={t('settings.provider.modelPlaceholder')}
          data-testid="provider-model"
          onChange={(e) => edit({ model: e.target.value })}
        />
      </div>

      {shown.kind === 'openai' && (
        <div className="field field--wide">
          <label className="field__label" htmlFor={`${id}-url`}>
            {t('settings.provider.baseUrl')}
          </label>
          <input
            id={`${id}-url`}
            className="input mono"
            type="url"
            value={shown.baseUrl}
            spellCheck={false}
            autoComplete="off"
            placeholder="https://api.openai.com/v1"
            aria-describedby={`${id}-url-help`}
            data-testid="provider-base-url"
            onChange={(e) => edit({ baseUrl: e.target.value })}
          />
          <div className="field__after">
            <p className="field__help" id={`${id}-url-help`}>
              {t('settings.provider.baseUrlHelp')}
            </p>
            <div className="preset-row" role="group" aria-label={t('settings.provider.presets')}>
              {LOCAL_PRESETS.map((p) => (
                <button
                  key={p.name}
                  type="button"
                  className={`chip${shown.baseUrl.trim() === p.baseUrl ? ' is-active' : ''}`}
                  aria-pressed={shown.baseUrl.trim() === p.baseUrl}
                  data-testid={`preset-${p.name.replace(/\s+/g, '-').toLowerCase()}`}
                  onClick={() => edit({ baseUrl: p.baseUrl })}
                >
                  {p.name}
                </button>
              ))}
            </div>
          </div>
        </div>
      )}

      <div className="provider-form__actions field--wide">
        {save.error !== null && (
          <p className="field-error" role="alert" data-testid="provider-error">
            {describeError(save.error, t)}
          </p>
        )}
        <span className="provider-form__spacer" />
        {dirty && (
          <button type="button" className="btn btn--small" onClick={() => setDraft(null)} data-testid="provider-revert">
            {t('settings.action.revert')}
          </button>
        )}
        <button type="submit" className={`btn btn--small${dirty ? ' btn--primary' : ''}`} disabled={!dirty || save.pending} data-testid="provider-save">
          {t('settings.action.save')}
        </button>
      </div>
    </form>
  );
}
