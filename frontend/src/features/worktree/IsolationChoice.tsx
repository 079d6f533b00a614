import { useId } from 'react';
import { useT } from '../../i18n/I18nProvider';
import './worktree.css';

/**
 * Whether the new task runs in an isolated copy of the folder's repository: a git worktree of its
 * own on a branch named after the task, so tasks running side by side never edit the same files;
 * and whether the repository's proposed set-up command runs there, for this task only.
 */
export function IsolationChoice({
  isolated,
  carry,
  busy = 0,
  repoSetup = '',
  runRepoSetup = false,
  onIsolated,
  onCarry,
  onRunRepoSetup,
}: {
  isolated: boolean;
  carry: boolean;
  /** Tasks running in the same repository now: isolated is then the default, and says why. */
  busy?: number;
  /** The set-up command the repository proposes ('' for none), shown as it would run. */
  repoSetup?: string;
  runRepoSetup?: boolean;
  onIsolated: (v: boolean) => void;
  onCarry: (v: boolean) => void;
  onRunRepoSetup?: (v: boolean) => void;
}) {
  const t = useT();
  const id = useId();
  return (
    <div className="isolation" data-testid="isolation-choice">
      <label className="isolation__option" htmlFor={`${id}-isolated`}>
        <input id={`${id}-isolated`} type="checkbox" checked={isolated} data-testid="isolated" onChange={(e) => onIsolated(e.target.checked)} />
        <span>{t('worktree.choice.isolated')}</span>
      </label>
      {busy > 0 && (
        <span className="isolation__why" data-testid="isolation-busy">
          {t('worktree.choice.busy', { Count: busy })}
        </span>
      )}
      {isolated && (
        <label className="isolation__option isolation__option--sub" htmlFor={`${id}-carry`}>
          <input id={`${id}-carry`} type="checkbox" checked={carry} data-testid="carry" onChange={(e) => onCarry(e.target.checked)} />
          <span>{t('worktree.choice.carry')}</span>
        </label>
      )}
      {isolated && repoSetup !== '' && onRunRepoSetup && (
        <label className="isolation__option isolation__option--sub" htmlFor={`${id}-setup`}>
          <input
            id={`${id}-setup`}
            type="checkbox"
            checked={runRepoSetup}
            data-testid="run-repo-setup"
            onChange={(e) => onRunRepoSetup(e.target.checked)}
          />
          <span>
            {t('worktree.choice.repoSetup')} <code className="mono" data-testid="repo-setup-command">{repoSetup}</code>
          </span>
        </label>
      )}
    </div>
  );
}
