import { useT } from '../../i18n/I18nProvider';
import { SettingsSection } from '../settings/SettingsSection';
import { KeymapList } from './KeymapList';
import { setModeCycle, useModeCycle } from './modeCycle';

/** Settings → Keyboard: the keyboard map, and whether Shift+Tab cycles the mode. */
export function KeyboardSection() {
  const t = useT();
  const cycle = useModeCycle();
  return (
    <SettingsSection id="keyboard" title={t('shell.keys.settingsTitle')} description={t('shell.keys.settingsDescription')} testId="keyboard-section">
      <div className="setting-row">
        <label className="keymap__toggle">
          <input type="checkbox" data-testid="mode-cycle-toggle" checked={cycle} aria-describedby="mode-cycle-help" onChange={(e) => setModeCycle(e.target.checked)} />
          <span>{t('shell.keys.modeCycle')}</span>
        </label>
        <p id="mode-cycle-help" className="keymap__help">
          {t('shell.keys.modeCycleHelp')}
        </p>
      </div>
      <KeymapList testId="settings-keymap" />
    </SettingsSection>
  );
}
