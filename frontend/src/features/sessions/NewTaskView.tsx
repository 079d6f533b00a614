import type { ReactNode } from 'react';
import type { Api, Session } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { useStore } from '../../ui/store';
import { FolderIcon } from '../../ui/icons';
import type { NewTaskStore } from '../composer/newTaskStore';
import { NewTaskComposer } from '../composer/NewTaskComposer';

/**
 * A new task: no session exists until the first message is sent from this composer. First-run
 * onboarding (when no provider is configured) sits above it.
 */
export function NewTaskView({
  api,
  draft,
  firstSession,
  defaultWorkspace,
  onboarding,
  onStarted,
}: {
  api: Api;
  draft: NewTaskStore;
  /** No session exists yet. */
  firstSession: boolean;
  defaultWorkspace: string | null;
  onboarding: ReactNode;
  onStarted: (s: Session) => void;
}) {
  const t = useT();
  const { workspace, setupOpen } = useStore(draft);
  return (
    <div className="new-task" data-testid="new-task">
      <div className="new-task__scroll">
        {!setupOpen && onboarding}
        <header className="new-task__head" data-testid={firstSession ? 'no-sessions' : undefined}>
          <h1 className="new-task__title">{firstSession ? t('shell.empty.title') : t('composer.newTask.title')}</h1>
          <p className="new-task__text">{firstSession ? t('shell.empty.body') : t('composer.newTask.body')}</p>
          <label className="new-task__folder">
            <FolderIcon size={13} />
            <span className="new-task__folder-label">{t('composer.newTask.folder')}</span>
            <input
              className="new-task__folder-input mono"
              data-testid="new-task-workspace"
              value={workspace}
              placeholder={defaultWorkspace ?? ''}
              aria-label={t('composer.newTask.folderLabel')}
              spellCheck={false}
              onChange={(e) => draft.setWorkspace(e.target.value)}
            />
          </label>
        </header>
      </div>
      <div className="new-task__composer">
        <NewTaskComposer api={api} draft={draft} onStarted={onStarted} />
      </div>
    </div>
  );
}
