import { useEffect, useId, useState, type FormEvent } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';
import { formatDuration } from './duration';
import { useAction } from './useAction';

/**
 * How long an external agent may take to start: initialize and opening its session. A loaded
 * machine took 26 s for opencode, so the default is 120 s; the server validates the range.
 */
export function StartTimeoutField({ value, onSave }: { value: string; onSave: (value: string) => Promise<unknown> }) {
  const t = useT();
  const id = useId();
  const saved = formatDuration(value);
  const [text, setText] = useState(saved);
  const [editing, setEditing] = useState(false);
  const save = useAction(onSave);

  useEffect(() => {
    if (!editing) setText(saved);
  }, [saved, editing]);

  const dirty = text.trim() !== saved;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (dirty && (await save.run(text.trim()))) setEditing(false);
  };
  const errorId = `${id}-error`;
  return (
    <form className="setting-row" onSubmit={(e) => void submit(e)} data-testid="start-timeout">
      <div className="setting-row__label">
        <label htmlFor={`${id}-input`} className="setting-row__title">
          {t('settings.agents.startTimeout.label')}
        </label>
        <p className="setting-row__help" id={`${id}-help`}>
          {t('settings.agents.startTimeout.help', { Min: '5s', Max: '30m' })}
        </p>
      </div>
      <div className="setting-row__control field-inline">
        <input
          id={`${id}-input`}
          className={`input input--short mono${save.error !== null ? ' is-invalid' : ''}`}
          value={text}
          spellCheck={false}
          autoComplete="off"
          aria-describedby={save.error !== null ? `${errorId} ${id}-help` : `${id}-help`}
          aria-invalid={save.error !== null}
          data-testid="start-timeout-input"
          onChange={(e) => {
            setText(e.target.value);
            setEditing(true);
            save.clearError();
          }}
        />
        <button type="submit" className="btn btn--small" disabled={!dirty || save.pending} data-testid="start-timeout-save">
          {t('settings.action.save')}
        </button>
      </div>
      {save.error !== null && (
        <p className="field-error" id={errorId} role="alert" data-testid="start-timeout-error">
          {describeError(save.error, t)}
        </p>
      )}
    </form>
  );
}
