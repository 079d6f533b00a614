import { useEffect, useState, type ReactNode } from 'react';
import type { Api, Session } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { useStore } from '../../ui/store';
import type { NewTaskStore } from '../composer/newTaskStore';
import { NewTaskComposer } from '../composer/NewTaskComposer';
import { useFoldersApi } from '../workspace/foldersContext';
import { HomeConfirm, WorkspaceField } from '../workspace/WorkspaceField';
import { IsolationChoice } from '../worktree/IsolationChoice';

/**
 * A new task: no session exists until the first message is sent from this composer. First-run
 * onboarding (when no provider is configured) sits above it and scrolls; the folder field docks
 * with the composer, so where the agent will work is always on screen.
 */
export function NewTaskView({
  api,
  draft,
  firstSession,
  desktop,
  onboarding,
  onStarted,
}: {
  api: Api;
  draft: NewTaskStore;
  /** No session exists yet. */
  firstSession: boolean;
  /** The page runs in the desktop window (a native folder dialog exists). */
  desktop: boolean;
  onboarding: ReactNode;
  onStarted: (s: Session) => void;
}) {
  const t = useT();
  const { workspace, setupOpen, homeToConfirm, isolated, carry, repository, busy, repoSetup, runRepoSetup } = useStore(draft);
  useEffect(() => {
    const timer = window.setTimeout(() => void draft.suggestIsolation(workspace), 250);
    return () => window.clearTimeout(timer);
  }, [draft, workspace]);
  const foldersApi = useFoldersApi();
  const [confirmError, setConfirmError] = useState<unknown>(null);

  async function confirmHome() {
    setConfirmError(null);
    const created = await draft.submit(true);
    if (created) onStarted(created);
    else if (draft.get().error !== null) setConfirmError(draft.get().error);
  }

  return (
    <div className="new-task" data-testid="new-task">
      <div className="new-task__scroll">
        {!setupOpen && onboarding}
        <header className="new-task__head" data-testid={firstSession ? 'no-sessions' : undefined}>
          <h1 className="new-task__title">{firstSession ? t('shell.empty.title') : t('composer.newTask.title')}</h1>
          <p className="new-task__text">{firstSession ? t('shell.empty.body') : t('composer.newTask.body')}</p>
        </header>
      </div>
      <div className="new-task__composer">
        <div className="new-task__where">
          <WorkspaceField
            folders={foldersApi}
            desktop={desktop}
            value={workspace}
            onChange={(path) => {
              setConfirmError(null);
              draft.setWorkspace(path);
            }}
            onRecent={(recent) => recent[0] && draft.suggestWorkspace(recent[0])}
          />
          {repository === true && (
            <IsolationChoice
              isolated={isolated}
              carry={carry}
              busy={busy}
              repoSetup={repoSetup}
              runRepoSetup={runRepoSetup}
              onIsolated={draft.setIsolated}
              onCarry={draft.setCarry}
              onRunRepoSetup={draft.setRunRepoSetup}
            />
          )}
          {homeToConfirm !== null && (
            <HomeConfirm path={homeToConfirm} onConfirm={() => void confirmHome()} onDecline={draft.declineHome} />
          )}
          {confirmError !== null && <ErrorNotice error={confirmError} onDismiss={() => setConfirmError(null)} testId="new-task-error" />}
        </div>
        <NewTaskComposer api={api} draft={draft} onStarted={onStarted} />
      </div>
    </div>
  );
}
