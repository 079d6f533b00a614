import { useEffect, useId, useState, type FormEvent } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { formatDuration, NEVER } from './duration';
import { Segmented } from './Segmented';
import { SettingError, SettingText } from './SettingText';
import { useAction } from './useAction';
import { SettingLabel } from './SettingLabel';

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

  return (
    <form className="setting-row" onSubmit={(e) => void submit(e)} data-testid="decision-timeout" data-value={saved}>
      <SettingLabel
        title={t('decision.setting.timeout.label')}
        help={t('decision.setting.timeout.help', { Min: '10s', Max: '24h' })}
        titleId={`${id}-title`}
        helpId={`${id}-help`}
      />
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
            <SettingText
              id={id}
              testId="decision-timeout"
              draft={{ text, setText, editing, setEditing }}
              save={save}
              dirty={dirty}
              short
              ariaLabel={t('decision.setting.timeout.durationLabel')}
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
          </>
        )}
      </div>
      <SettingError id={id} testId="decision-timeout" error={save.error} />
    </form>
  );
}
