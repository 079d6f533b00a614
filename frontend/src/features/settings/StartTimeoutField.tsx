import { useId } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { formatDuration } from './duration';
import { SavedTextRow } from './SettingText';

/**
 * How long an external agent may take to start: initialize and opening its session. A loaded
 * machine took 26 s for opencode, so the default is 120 s; the server validates the range.
 */
export function StartTimeoutField({ value, onSave }: { value: string; onSave: (value: string) => Promise<unknown> }) {
  const t = useT();
  return (
    <SavedTextRow
      id={useId()}
      testId="start-timeout"
      saved={formatDuration(value)}
      title={t('settings.agents.startTimeout.label')}
      help={t('settings.agents.startTimeout.help', { Min: '5s', Max: '30m' })}
      onSave={onSave}
    />
  );
}
