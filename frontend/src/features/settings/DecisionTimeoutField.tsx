import { useEffect, useId, useState, type FormEvent } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';
import { formatDuration } from './duration';
import { useAction } from './useAction';

/** How long a decision waits (R-DEC-5). The server validates; its message shows under the field. */
export function DecisionTimeoutField({
  value,
  onSave,
}: {
  value: string;
  onSave: (value: string) => Promise<unknown>;
}) {
  const t = useT();
  const id = useId();
  const saved = formatDuration(value);
  const [text, setText] = useState(saved);
  const [editing, setEditing] = useState(false);
  const save = useAction(onSave);

  // Follow changes from elsewhere unless the person is typing.
  useEffect(() => {
    if (!editing) setText(saved);
  }, [saved, editing]);

  const dirty = text.trim() !== saved;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!dirty) return;
    if (await save.run(text.trim())) setEditing(false);
  };

  const errorId = `${id}-error`;
  return (
    <form className="setting-row" onSubmit={(e) => void submit(e)} data-testid="decision-timeout">
      <div className="setting-row__label">
        <label htmlFor={`${id}-input`} className="setting-row__title">
          {t('decision.setting.timeout.label')}
        </label>
        <p className="setting-row__help" id={`${id}-help`}>
          {t('decision.setting.timeout.help', { Min: '10s', Max: '24h' })}
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
          data-testid="decision-timeout-input"
          onChange={(e) => {
            setText(e.target.value);
            setEditing(true);
            save.clearError();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && dirty) {
              e.preventDefault();
              setText(saved);
              setEditing(false);
              save.clearError();
            }
          }}
        />
        <button
          type="submit"
          className="btn btn--small"
          disabled={!dirty || save.pending}
          data-testid="decision-timeout-save"
        >
          {t('settings.action.save')}
        </button>
      </div>
      {save.error !== null && (
        <p className="field-error" id={errorId} role="alert" data-testid="decision-timeout-error">
          {describeError(save.error, t)}
        </p>
      )}
    </form>
  );
}
