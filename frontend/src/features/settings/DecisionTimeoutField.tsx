import { useEffect, useId, useState, type FormEvent } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';
import { formatDuration, NEVER } from './duration';
import { Segmented } from './Segmented';
import { useAction } from './useAction';

/** The duration offered when the person turns the timeout on. */
const SUGGESTED = '10m';

type Choice = 'wait' | 'decline';

/**
 * How long a decision waits (R-DEC-5): by default it waits for the person ("never" times out);
 * "Decline after" takes a duration the server validates, its message shown under the field.
 */
export function DecisionTimeoutField({ value, onSave }: { value: string; onSave: (value: string) => Promise<unknown> }) {
  const t = useT();
  const id = useId();
  const saved = formatDuration(value);
  const savedChoice: Choice = saved === NEVER ? 'wait' : 'decline';
  const [choice, setChoice] = useState<Choice>(savedChoice);
  const [text, setText] = useState(saved === NEVER ? SUGGESTED : saved);
  const [editing, setEditing] = useState(false);
  const save = useAction(onSave);

  // Follow changes from elsewhere unless the person is typing.
  useEffect(() => {
    if (editing) return;
    setChoice(savedChoice);
    if (saved !== NEVER) setText(saved);
  }, [saved, savedChoice, editing]);

  const dirty = choice === 'decline' && text.trim() !== saved;

  const pick = async (next: Choice) => {
    setChoice(next);
    save.clearError();
    if (next === 'wait') {
      setEditing(false);
      if (saved !== NEVER) await save.run(NEVER);
    } else {
      setEditing(true);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!dirty) return;
    if (await save.run(text.trim())) setEditing(false);
  };

  const errorId = `${id}-error`;
  return (
    <form className="setting-row" onSubmit={(e) => void submit(e)} data-testid="decision-timeout" data-value={saved}>
      <div className="setting-row__label">
        <span className="setting-row__title" id={`${id}-title`}>
          {t('decision.setting.timeout.label')}
        </span>
        <p className="setting-row__help" id={`${id}-help`}>
          {t('decision.setting.timeout.help', { Min: '10s', Max: '24h' })}
        </p>
      </div>
      <div className="setting-row__control field-inline">
        <Segmented<Choice>
          label={t('decision.setting.timeout.label')}
          testId="decision-timeout-choice"
          value={choice}
          onChange={(c) => void pick(c)}
          options={[
            { value: 'wait', label: t('decision.setting.timeout.wait') },
            { value: 'decline', label: t('decision.setting.timeout.decline') },
          ]}
        />
        {choice === 'decline' && (
          <>
            <input
              id={`${id}-input`}
              className={`input input--short mono${save.error !== null ? ' is-invalid' : ''}`}
              value={text}
              spellCheck={false}
              autoComplete="off"
              aria-label={t('decision.setting.timeout.durationLabel')}
              aria-describedby={save.error !== null ? `${errorId} ${id}-help` : `${id}-help`}
              aria-invalid={save.error !== null}
              data-testid="decision-timeout-input"
              onChange={(e) => {
                setText(e.target.value);
                setEditing(true);
                save.clearError();
              }}
              onKeyDown={(e) => {
                if (e.key === 'Escape' && editing) {
                  e.preventDefault();
                  setChoice(savedChoice);
                  setText(saved === NEVER ? SUGGESTED : saved);
                  setEditing(false);
                  save.clearError();
                }
              }}
            />
            <button type="submit" className="btn btn--small" disabled={!dirty || save.pending} data-testid="decision-timeout-save">
              {t('settings.action.save')}
            </button>
          </>
        )}
      </div>
      {save.error !== null && (
        <p className="field-error" id={errorId} role="alert" data-testid="decision-timeout-error">
          {describeError(save.error, t)}
        </p>
      )}
    </form>
  );
}
