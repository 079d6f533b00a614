import { useId, type FormEvent } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { formatDuration } from './duration';
import { TextSettingRow, useDraft } from './SettingText';
import { useAction } from './useAction';

/**
 * How long an external agent may take to start: initialize and opening its session. A loaded
 * machine took 26 s for opencode, so the default is 120 s; the server validates the range.
 */
export function StartTimeoutField({ value, onSave }: { value: string; onSave: (value: string) => Promise<unknown> }) {
  const t = useT();
  const id = useId();
  const saved = formatDuration(value);
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
      testId="start-timeout"
      title={t('settings.agents.startTimeout.label')}
      help={t('settings.agents.startTimeout.help', { Min: '5s', Max: '30m' })}
      onSubmit={(e) => void submit(e)}
      draft={draft}
      save={save}
      dirty={dirty}
      short
    />
  );
}
