import type { KeyboardEvent } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';

/**
 * A setting's text box with its Save button, as a setting row's form shows it: the ids and test ids
 * derive from `id` (useId) and `testId` (`<testId>-input`, `-save`); the help below the label is
 * `<id>-help` and SettingError's paragraph `<id>-error`.
 */
export function SettingText({
  id,
  testId,
  text,
  onText,
  error,
  dirty,
  pending,
  short = false,
  placeholder,
  ariaLabel,
  onKeyDown,
}: {
  id: string;
  testId: string;
  text: string;
  /** The person typed: the caller keeps the text and clears the last error. */
  onText: (text: string) => void;
  error: unknown;
  dirty: boolean;
  pending: boolean;
  /** A narrow box, for a duration or a number. */
  short?: boolean;
  placeholder?: string;
  ariaLabel?: string;
  onKeyDown?: (e: KeyboardEvent<HTMLInputElement>) => void;
}) {
  const t = useT();
  const invalid = error !== null;
  return (
    <>
      <input
        id={`${id}-input`}
        className={`input${short ? ' input--short' : ''} mono${invalid ? ' is-invalid' : ''}`}
        value={text}
        placeholder={placeholder}
        spellCheck={false}
        autoComplete="off"
        aria-label={ariaLabel}
        aria-describedby={invalid ? `${id}-error ${id}-help` : `${id}-help`}
        aria-invalid={invalid}
        data-testid={`${testId}-input`}
        onChange={(e) => onText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="btn btn--small" disabled={!dirty || pending} data-testid={`${testId}-save`}>
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
