import { useId, type FormEvent } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { TextSettingRow, useDraft } from './SettingText';
import { useAction } from './useAction';

/**
 * How many model requests a turn makes before it pauses to ask whether to go on: a long task is
 * never cut off, and a loop that runs away costs at most this many requests before the person
 * hears of it. The server validates the range.
 */
export function StepLimitField({ value, onSave }: { value: number; onSave: (value: string) => Promise<unknown> }) {
  const t = useT();
  const id = useId();
  const saved = value > 0 ? String(value) : '';
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
      testId="step-limit"
      title={t('settings.stepLimit.label')}
      help={t('settings.stepLimit.help', { Min: 1, Max: 10000 })}
      onSubmit={(e) => void submit(e)}
      draft={draft}
      save={save}
      dirty={dirty}
      short
    />
  );
}
