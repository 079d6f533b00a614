import { useId } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { SavedTextRow } from './SettingText';

/**
 * How many model requests a turn makes before it pauses to ask whether to go on: a long task is
 * never cut off, and a loop that runs away costs at most this many requests before the person
 * hears of it. The server validates the range.
 */
export function StepLimitField({ value, onSave }: { value: number; onSave: (value: string) => Promise<unknown> }) {
  const t = useT();
  return (
    <SavedTextRow
      id={useId()}
      testId="step-limit"
      saved={value > 0 ? String(value) : ''}
      title={t('settings.stepLimit.label')}
      help={t('settings.stepLimit.help', { Min: 1, Max: 10000 })}
      onSave={onSave}
    />
  );
}
