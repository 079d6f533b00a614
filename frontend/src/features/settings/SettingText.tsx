import { useEffect, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';
import { SettingLabel } from './SettingLabel';
import { useAction, type Action } from './useAction';

/** A setting's text as the person edits it: while they type (editing), changes from elsewhere wait. */
export interface Draft {
  text: string;
  setText: (text: string) => void;
  editing: boolean;
  setEditing: (editing: boolean) => void;
}

/** A draft of `saved` that follows it whenever the person is not typing. */
export function useDraft(saved: string): Draft {
  const [text, setText] = useState(saved);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) setText(saved);
  }, [saved, editing]);
  return { text, setText, editing, setEditing };
}

export interface SettingTextProps {
  id: string;
  testId: string;
  /** The text; typing marks it edited and clears the save's last error. */
  draft: Draft;
  /** The save's state: pending, and its last error. */
  save: Pick<Action<[]>, 'pending' | 'error' | 'clearError'>;
  dirty: boolean;
  /** A narrow box, for a duration or a number. */
  short?: boolean;
  placeholder?: string;
  ariaLabel?: string;
  onKeyDown?: (e: KeyboardEvent<HTMLInputElement>) => void;
}

/**
 * A setting's text box with its Save button, as a setting row's form shows it: the ids and test ids
 * derive from `id` (useId) and `testId` (`<testId>-input`, `-save`); the help below the label is
 * `<id>-help` and SettingError's paragraph `<id>-error`.
 */
export function SettingText({
  id,
  testId,
  draft,
  save,
  dirty,
  short = false,
  placeholder,
  ariaLabel,
  onKeyDown,
}: SettingTextProps) {
  const t = useT();
  const invalid = save.error !== null;
  return (
    <>
      <input
        id={`${id}-input`}
        className={`input${short ? ' input--short' : ''} mono${invalid ? ' is-invalid' : ''}`}
        value={draft.text}
        placeholder={placeholder}
        spellCheck={false}
        autoComplete="off"
        aria-label={ariaLabel}
        aria-describedby={invalid ? `${id}-error ${id}-help` : `${id}-help`}
        aria-invalid={invalid}
        data-testid={`${testId}-input`}
        onChange={(e) => {
          draft.setText(e.target.value);
          draft.setEditing(true);
          save.clearError();
        }}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="btn btn--small" disabled={!dirty || save.pending} data-testid={`${testId}-save`}>
        {t('settings.action.save')}
      </button>
    </>
  );
}

/** A setting's last failed save, in the person's language, under its row (`<testId>-error`). */
export function SettingError({ id, testId, error }: { id: string; testId: string; error: unknown }) {
  const t = useT();
  if (error === null) return null;
  return (
    <p className="field-error" id={`${id}-error`} role="alert" data-testid={`${testId}-error`}>
      {describeError(error, t)}
    </p>
  );
}

/** A setting row that edits text: its title and help, the box with Save, and the last error. */
export function TextSettingRow({
  title,
  help,
  onSubmit,
  ...box
}: SettingTextProps & { title: ReactNode; help: ReactNode; onSubmit: (e: FormEvent) => void }) {
  return (
    <form className="setting-row" onSubmit={onSubmit} data-testid={box.testId}>
      <SettingLabel title={title} help={help} htmlFor={`${box.id}-input`} helpId={`${box.id}-help`} />
      <div className="setting-row__control field-inline">
        <SettingText {...box} />
      </div>
      <SettingError id={box.id} testId={box.testId} error={box.save.error} />
    </form>
  );
}

/**
 * A one-value setting typed as text: its saved value shown, Save (or Enter) sends what was typed,
 * and the server's refusal is said under it. The server validates; the page only trims.
 */
export function SavedTextRow({
  id,
  testId,
  saved,
  title,
  help,
  onSave,
}: {
  id: string;
  testId: string;
  saved: string;
  title: ReactNode;
  help: ReactNode;
  onSave: (value: string) => Promise<unknown>;
}) {
  const draft = useDraft(saved);
  const save = useAction(onSave);
  const dirty = draft.text.trim() !== saved;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (dirty && (await save.run(draft.text.trim()))) draft.setEditing(false);
  };
  return (
    <TextSettingRow
      id={id}
      testId={testId}
      title={title}
      help={help}
      onSubmit={(e) => void submit(e)}
      draft={draft}
      save={save}
      dirty={dirty}
      short
    />
  );
}
