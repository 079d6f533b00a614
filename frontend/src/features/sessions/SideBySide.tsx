import { useEffect, useId, useMemo, useState } from 'react';
import type { Api, Session } from '../../bridge';
import type { WorktreeRepo, WorktreeTask } from '../../bridge/generated';
import { useT } from '../../i18n/I18nProvider';

export interface SideBySideProps {
  api: Api;
  /** The loaded session list: its live states are the newest known, and a change to it may move a task. */
  sessions: readonly Session[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}

type TaskState = 'running' | 'waiting' | 'idle';

/** The folder's own name: the last part of its path. */
export const baseName = (path: string) => path.replace(/[/\\]+$/, '').split(/[/\\]/).pop() || path;

/** A branch's last part: AgentDesk names them agentdesk/<id>/<title>. */
const shortBranch = (branch: string) => branch.split('/').pop() || branch;

/** The task's live state: the session list's when it is newer (it follows every broadcast), else the row's. */
function stateOf(task: WorktreeTask, session: Session | undefined): TaskState {
  const live = session && (session.stateSeq ?? -1) >= task.stateSeq ? session : task;
  if ((live.waiting ?? 0) > 0) return 'waiting';
  return live.running ? 'running' : 'idle';
}

/**
 * What of the session list, when it changes, may change the tasks listed: who is there, their
 * titles, folders (a handoff moves a task into or out of its worktree) and activity.
 */
const listKey = (sessions: readonly Session[]) => sessions.map((s) => `${s.id} ${s.updatedAt} ${s.workspace} ${s.title}`).join('\n');

/**
 * The tasks that run in worktrees of their own, side by side with the person's folder: by
 * repository, each with its branch, its state and how many of its files have not reached the
 * person. It reads the worktree records only (never the session pages) and reads them again when
 * a worktree changes (its count, a removal, a restore) or the session list does. Nothing shows while no task has a worktree.
 */
export function SideBySide({ api, sessions, selectedId, onSelect }: SideBySideProps) {
  const t = useT();
  const headingId = useId();
  const [repos, setRepos] = useState<WorktreeRepo[]>([]);
  const key = listKey(sessions);

  useEffect(() => {
    let live = true;
    // A server that cannot say (an older one) shows no section rather than an error in the sidebar.
    const load = () =>
      api.sessions.listWorktreeTasks().then(
        (r) => live && setRepos(r),
        () => live && setRepos([]),
      );
    void load();
    const off = api.sessions.onWorktreeChanged(() => void load());
    return () => {
      live = false;
      off();
    };
  }, [api, key]);

  const byId = useMemo(() => new Map(sessions.map((s) => [s.id, s])), [sessions]);
  if (repos.length === 0) return null;
  return (
    <section className="side-by-side" aria-labelledby={headingId} data-testid="side-by-side">
      <h2 id={headingId} className="sidebar__heading side-by-side__heading">
        {t('worktree.side.heading')}
      </h2>
      {repos.map((repo) => (
        <Repo key={repo.repo} repo={repo} byId={byId} selectedId={selectedId} onSelect={onSelect} />
      ))}
    </section>
  );
}

function Repo({ repo, byId, selectedId, onSelect }: { repo: WorktreeRepo; byId: Map<string, Session>; selectedId: string | null; onSelect: (id: string) => void }) {
  const headingId = useId();
  return (
    <div className="side-by-side__repo" data-testid="side-by-side-repo">
      <h3 id={headingId} className="side-by-side__repo-name" title={repo.repo}>
        {baseName(repo.repo)}
      </h3>
      <ul className="side-by-side__tasks" aria-labelledby={headingId}>
        {(repo.tasks ?? []).map((task) => (
          <li key={task.id}>
            <Task task={task} state={stateOf(task, byId.get(task.id))} selected={task.id === selectedId} onSelect={onSelect} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function Task({ task, state, selected, onSelect }: { task: WorktreeTask; state: TaskState; selected: boolean; onSelect: (id: string) => void }) {
  const t = useT();
  return (
    <button
      type="button"
      className={`side-by-side__task${selected ? ' is-selected' : ''}`}
      data-testid="side-by-side-task"
      data-session-id={task.id}
      aria-current={selected ? 'page' : undefined}
      title={task.title}
      onClick={() => onSelect(task.id)}
    >
      <span className="session-item__title">{task.title}</span>
      <span className="side-by-side__sub">
        <span className="mono side-by-side__branch" title={task.branch}>
          {shortBranch(task.branch)}
        </span>
        <span className={`side-by-side__state side-by-side__state--${state}`} data-testid="side-by-side-state" data-state={state}>
          {state === 'running' && <span className="session-item__running" aria-hidden="true" />}
          {t(`worktree.side.state.${state}`)}
        </span>
        {task.unapplied > 0 && (
          <span className="side-by-side__unapplied" data-testid="side-by-side-unapplied">
            {t('worktree.side.unapplied', { Count: task.unapplied })}
          </span>
        )}
      </span>
    </button>
  );
}
