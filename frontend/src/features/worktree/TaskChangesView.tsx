import { Suspense, useCallback, useEffect, useState } from 'react';
import type { Api } from '../../bridge';
import type { TaskChanges, TaskFile } from '../../bridge/generated';
import { useT } from '../../i18n/I18nProvider';
import type { TFunction } from '../../i18n/translate';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { Spinner } from '../../ui/Spinner';
import { PaneHead } from '../checkpoints/PaneHead';
import { LazyDiffView } from '../diff/change';
import { conflictsOf, showConflicts } from './conflicts';
import '../checkpoints/checkpoints.css';
import './worktree.css';

type Load = { status: 'loading' } | { status: 'ready'; changes: TaskChanges } | { status: 'error'; error: unknown };

// Go sends a state as a plain string: one this build does not know shows as a conflict would,
// so nothing unknown is offered for applying.
const TONE: Partial<Record<string, string>> = { pending: 'pending', applied: 'ok', conflict: 'danger' };
const known = (state: string | undefined) => (state && state in TONE ? state : 'conflict');

/**
 * A task's changes against its base, committed or not, hunk by hunk: each one applied to the
 * person's folder (only where their file still has the lines it replaces) or discarded from
 * the task's own copy. A hunk whose lines the person changed since is a conflict: it is shown,
 * never written over theirs.
 */
export function TaskChangesView({ api, sessionId, onClose }: { api: Api; sessionId: string; onClose: () => void }) {
  const t = useT();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [actionError, setActionError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    try {
      const changes = await api.sessions.reviewWorktree(sessionId);
      setLoad({ status: 'ready', changes });
      showConflicts(sessionId, conflictsOf(changes));
    } catch (error) {
      setLoad({ status: 'error', error });
    }
  }, [api, sessionId]);
  useEffect(() => void reload(), [reload]);

  const act = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setActionError(null);
    try {
      await fn();
      await reload();
      return true;
    } catch (err) {
      setActionError(err);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const apply = (path: string, hunks: number[]) => act(() => api.sessions.applyWorktreeFile(sessionId, path, hunks));
  const discard = (path: string, hunks: number[], reason: string) => act(() => api.sessions.discardWorktreeFile(sessionId, path, hunks, reason.trim()));

  const files = load.status === 'ready' ? (load.changes.files ?? []) : [];
  return (
    <section className="review-pane" data-testid="task-changes" aria-labelledby="task-changes-title">
      <PaneHead
        titleId="task-changes-title"
        title={t('worktree.changes.title')}
        lead={load.status === 'ready' && t('worktree.changes.count', { Count: files.length })}
        onClose={onClose}
      />
      <p className="review-pane__lead">{t('worktree.changes.lead')}</p>
      {actionError !== null && <ErrorNotice error={actionError} onDismiss={() => setActionError(null)} testId="task-changes-error" />}
      {load.status === 'loading' && <Spinner label={t('shell.state.loading')} />}
      {load.status === 'error' && <ErrorNotice error={load.error} onRetry={() => void reload()} testId="task-changes-load-error" />}
      {load.status === 'ready' && files.length === 0 && <p className="review-pane__lead">{t('worktree.changes.none')}</p>}
      <div className="review-pane__files">
        {files.map((f) => (
          <TaskFileView key={f.path} file={f} busy={busy} t={t} onApply={apply} onDiscard={discard} />
        ))}
      </div>
    </section>
  );
}

function TaskFileView({
  file,
  busy,
  t,
  onApply,
  onDiscard,
}: {
  file: TaskFile;
  busy: boolean;
  t: TFunction;
  onApply: (path: string, hunks: number[]) => Promise<boolean>;
  onDiscard: (path: string, hunks: number[], reason: string) => Promise<boolean>;
}) {
  // One reason per file, sent with whichever of its discards comes next, for the agent to read.
  const [reason, setReason] = useState('');
  const discard = (pick: number[]) => void onDiscard(file.path, pick, reason).then((done) => done && setReason(''));
  const hunks = file.hunks ?? [];
  const states = file.hunkStates ?? [];
  const state = known(file.state);
  const hunkBar = (i: number) => {
    const s = known(states[i]);
    return (
      <span className="hunk-actions">
        <StateBadge state={s} t={t} testId="task-hunk-state" />
        {s === 'pending' && (
          <button type="button" className="btn btn--small" data-testid="task-hunk-apply" disabled={busy}
            aria-label={t('worktree.changes.applyHunkNamed', { N: i + 1, Path: file.path })}
            onClick={() => onApply(file.path, [i])}>
            {t('worktree.changes.applyHunk')}
          </button>
        )}
        {s !== 'applied' && (
          <button type="button" className="btn btn--small btn--quiet" data-testid="task-hunk-discard" disabled={busy}
            aria-label={t('worktree.changes.discardHunkNamed', { N: i + 1, Path: file.path })}
            onClick={() => discard([i])}>
            {t('worktree.changes.discardHunk')}
          </button>
        )}
      </span>
    );
  };
  return (
    <article className="review-file" data-testid="task-file" data-path={file.path} data-state={state}>
      <header className="review-file__head">
        <code className="review-file__path mono">{file.path}</code>
        <span className="badge badge--muted">{t(`worktree.changes.action.${file.action}`)}</span>
        <StateBadge state={state} t={t} testId="task-file-state" />
        <div className="review-file__actions">
          {(hunks.length > 0 ? states.includes('pending') : state === 'pending') && (
            <button type="button" className="btn btn--small" data-testid="task-file-apply" disabled={busy} onClick={() => void onApply(file.path, [])}>
              {t(hunks.length > 0 ? 'worktree.changes.applyAllHunks' : 'worktree.changes.applyFile')}
            </button>
          )}
          {state !== 'applied' && (
            <>
              <input
                className="input review-reason"
                data-testid="task-file-reason"
                aria-label={t('worktree.changes.reasonLabel', { Path: file.path })}
                placeholder={t('worktree.changes.reasonPlaceholder')}
                maxLength={2000}
                value={reason}
                readOnly={busy}
                onChange={(e) => setReason(e.target.value)}
              />
              <button type="button" className="btn btn--small btn--quiet" data-testid="task-file-discard" disabled={busy} onClick={() => discard([])}>
                {t('worktree.changes.discardFile')}
              </button>
            </>
          )}
        </div>
      </header>
      {state === 'conflict' && hunks.length === 0 && <p className="worktree-bar__conflicts">{t('worktree.changes.fileConflict')}</p>}
      <Suspense fallback={<Spinner label={t('shell.state.loading')} />}>
        <LazyDiffView
          change={{ path: file.path, before: file.before, after: file.after, created: file.action === 'create', omitted: file.omitted }}
          hunks={hunks.length > 0 ? hunks : undefined}
          hunkBar={hunks.length > 0 ? hunkBar : undefined}
          hunkState={(i) => states[i]}
        />
      </Suspense>
    </article>
  );
}

function StateBadge({ state, t, testId }: { state: string; t: TFunction; testId: string }) {
  return (
    <span className={`badge badge--${TONE[state] ?? 'danger'}`} data-testid={testId} data-state={state}>
      {t(`worktree.changes.state.${state}`)}
    </span>
  );
}
