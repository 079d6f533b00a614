import { useId } from 'react';
import type { AppSettings } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';
import type { AppSettingsStore } from './appSettingsStore';
import { SavedTextRow } from './SettingText';
import { SettingLabel } from './SettingLabel';
import { SettingsSection } from './SettingsSection';
import { useSettingsApi } from './settingsApiContext';
import { useAction } from './useAction';
import { WorktreePrepRows } from './WorktreePrepRows';

const ISOLATION = ['busy', 'always', 'never'] as const;

/**
 * Tasks side by side: how many turns run at once (the rest wait their turn and say so), when
 * a new task in a git repository runs in a worktree of its own, and how that worktree is prepared.
 */
export function TasksSection({ settings, store }: { settings: AppSettings; store: AppSettingsStore }) {
  const t = useT();
  const api = useSettingsApi();
  const id = useId();
  const isolation = useAction(async (value: string) => store.apply(await api.settings.setWorktreeIsolation(value)));
  return (
    <SettingsSection id="tasks" title={t('settings.tasks.title')} description={t('settings.tasks.description')} testId="tasks-section">
      {settings.parallelTurns !== undefined && (
        <SavedTextRow
          id={`${id}-parallel`}
          testId="parallel-turns"
          saved={String(settings.parallelTurns)}
          title={t('settings.tasks.parallel')}
          help={t('settings.tasks.parallelHelp')}
          onSave={async (value) => store.apply(await api.settings.setParallelTurns(value))}
        />
      )}
      {settings.worktreeIsolation !== undefined && (
        <div className="setting-row">
          <SettingLabel title={t('settings.tasks.isolation')} help={t('settings.tasks.isolationHelp')} htmlFor={`${id}-isolation`} helpId={`${id}-isolation-help`} />
          <div className="setting-row__control">
            <select
              id={`${id}-isolation`}
              className="input"
              value={settings.worktreeIsolation}
              disabled={isolation.pending}
              aria-describedby={`${id}-isolation-help`}
              data-testid="worktree-isolation"
              onChange={(e) => void isolation.run(e.target.value)}
            >
              {ISOLATION.map((v) => (
                <option key={v} value={v}>
                  {t(`settings.tasks.isolation.${v}`)}
                </option>
              ))}
            </select>
          </div>
          {isolation.error !== null && (
            <p className="field-error" role="alert">
              {describeError(isolation.error, t)}
            </p>
          )}
        </div>
      )}
      <WorktreePrepRows settings={settings} store={store} />
    </SettingsSection>
  );
}
