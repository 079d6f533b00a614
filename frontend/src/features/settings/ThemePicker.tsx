import { THEMES, type Theme } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { Segmented } from './Segmented';
import { useAction } from './useAction';
import { SettingLabel } from './SettingLabel';

export function ThemePicker({ theme, onChange }: { theme: Theme; onChange: (theme: Theme) => Promise<unknown> }) {
  const t = useT();
  const save = useAction(onChange);
  return (
    <div className="setting-row">
      <SettingLabel title={t('settings.theme.label')} help={t('settings.theme.help')} titleId="theme-label" />
      <div className="setting-row__control">
        <Segmented
          label={t('settings.theme.label')}
          options={THEMES.map((value) => ({ value, label: t(`settings.theme.${value}`) }))}
          value={theme}
          onChange={(next) => {
            if (!save.pending) void save.run(next);
          }}
          testId="theme-picker"
        />
      </div>
      {save.error !== null && (
        <div className="setting-row__error">
          <ErrorNotice error={save.error} onDismiss={save.clearError} testId="theme-error" />
        </div>
      )}
    </div>
  );
}
