import { useId, type FormEvent } from 'react';
import type { AppSettings } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import type { AppSettingsStore } from './appSettingsStore';
import { TextSettingRow, useDraft } from './SettingText';
import { useSettingsApi } from './settingsApiContext';
import { useAction } from './useAction';

/** "a, b c" as globs: separated by commas or white space; the server checks each one. */
function splitGlobs(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/**
 * What a new task's worktree gets before the agent starts: copies of untracked files the person
 * names (a secret only where named), then the person's own set-up command, run in the sandbox.
 */
export function WorktreePrepRows({ settings, store }: { settings: AppSettings; store: AppSettingsStore }) {
  const t = useT();
  const api = useSettingsApi();
  const id = useId();
  const savedCopy = (settings.worktreeCopy ?? []).join(', ');
  const copyDraft = useDraft(savedCopy);
  const saveCopy = useAction(async (globs: string[]) => store.apply(await api.settings.setWorktreeCopy(globs)));
  const copyDirty = splitGlobs(copyDraft.text).join(', ') !== savedCopy;
  const submitCopy = async (e: FormEvent) => {
    e.preventDefault();
    if (copyDirty && (await saveCopy.run(splitGlobs(copyDraft.text)))) copyDraft.setEditing(false);
  };
  const savedSetup = settings.worktreeSetup ?? '';
  const setupDraft = useDraft(savedSetup);
  const saveSetup = useAction(async (value: string) => store.apply(await api.settings.setWorktreeSetup(value)));
  const setupDirty = setupDraft.text.trim() !== savedSetup;
  const submitSetup = async (e: FormEvent) => {
    e.preventDefault();
    if (setupDirty && (await saveSetup.run(setupDraft.text.trim()))) setupDraft.setEditing(false);
  };
  return (
    <>
      {settings.worktreeCopy !== undefined && (
        <TextSettingRow
          id={`${id}-copy`}
          testId="worktree-copy"
          title={t('settings.tasks.copy')}
          help={t('settings.tasks.copyHelp')}
          placeholder={t('settings.tasks.copyPlaceholder')}
          onSubmit={(e) => void submitCopy(e)}
          draft={copyDraft}
          save={saveCopy}
          dirty={copyDirty}
        />
      )}
      {settings.worktreeSetup !== undefined && (
        <TextSettingRow
          id={`${id}-setup`}
          testId="worktree-setup"
          title={t('settings.tasks.setup')}
          help={t('settings.tasks.setupHelp')}
          placeholder={t('settings.tasks.setupPlaceholder')}
          onSubmit={(e) => void submitSetup(e)}
          draft={setupDraft}
          save={saveSetup}
          dirty={setupDirty}
        />
      )}
    </>
  );
}
