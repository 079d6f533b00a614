import { useEffect, useState } from 'react';
import type { Api } from '../../bridge';
import type { Applied, WorktreeView } from '../../bridge/generated';
import { useT } from '../../i18n/I18nProvider';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { conflictsOf, showConflicts } from './conflicts';
import './worktree.css';

/**
 * A session that runs in a worktree of its own: its branch and base, and what can be done with
 * its work — apply it to the person's folder (never over what they changed since: those are
 * conflicts), merge the branch into theirs, move the task into their folder, remove the copy
 * (keeping whatever did not reach them) and restore it. Nothing shows for a session in the person's own folder.
 */
export function WorktreeBar({ api, sessionId, onReview }: { api: Api; sessionId: string; onReview?: () => void }) {
  const t = useT();
  const [view, setView] = useState<WorktreeView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [applied, setApplied] = useState<Applied | null>(null);
  const [squash, setSquash] = useState(true);
  const [merged, setMerged] = useState(false);

  useEffect(() => {
    let live = true;
    setView(null);
    // A server that cannot say (an older one) shows nothing rather than an error in every header.
    api.sessions.worktree(sessionId).then(
      (v) => live && setView(v),
      () => live && setView(null),
    );
    return () => {
      live = false;
    };
  }, [api, sessionId]);

  if (error === null && (!view || !view.isolated)) return null;

  const act = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setApplied(null);
    setMerged(false);
    try {
      await fn();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const kept = view?.kept ?? [];

  return (
    <section className="worktree-bar" aria-label={t('worktree.bar.label')} data-testid="worktree-bar" data-removed={view?.removed ? 'true' : 'false'}>
      {view && (
        <p className="worktree-bar__where">
          <span className="mono" data-testid="worktree-branch">
            {view.branch}
          </span>{' '}
          {t('worktree.bar.from', { Base: view.base ?? '' })}
        </p>
      )}
      {view?.gone && (
        <div className="worktree-bar__actions" data-testid="worktree-gone">
          <p className="worktree-bar__conflicts">{t('worktree.bar.gone', { Branch: view.branch ?? '' })}</p>
          <button type="button" className="btn btn--small" disabled={busy} data-testid="worktree-restore"
            onClick={() => void act(async () => setView(await api.sessions.restoreWorktree(sessionId)))}>
            {t('worktree.bar.checkOutAgain')}
          </button>
        </div>
      )}
      {view && !view.removed && !view.gone && (
        <div className="worktree-bar__actions">
          {onReview && (
            <button type="button" className="btn btn--small" disabled={busy} data-testid="worktree-review" onClick={onReview}>
              {t('worktree.bar.review')}
            </button>
          )}
          <button type="button" className="btn btn--small" disabled={busy} data-testid="worktree-apply"
            onClick={() => void act(async () => {
              const got = await api.sessions.applyWorktree(sessionId);
              setApplied(got);
              await publishConflicts(api, sessionId, got);
            })}>
            {t('worktree.bar.apply')}
          </button>
          <button type="button" className="btn btn--small" disabled={busy} data-testid="worktree-merge"
            onClick={() => void act(async () => {
              setView(await api.sessions.mergeWorktree(sessionId, squash));
              setMerged(true);
            })}>
            {t('worktree.bar.merge')}
          </button>
          <label className="worktree-bar__squash">
            <input type="checkbox" checked={squash} onChange={(e) => setSquash(e.target.checked)} data-testid="worktree-squash" />
            {t('worktree.bar.squash')}
          </label>
          <button type="button" className="btn btn--small" disabled={busy} data-testid="worktree-handoff"
            onClick={() => void act(async () => {
              await api.sessions.handOff(sessionId);
              setView({ isolated: false, kept: [] });
            })}>
            {t('worktree.bar.handoff')}
          </button>
          <button type="button" className="btn btn--small btn--quiet" disabled={busy} data-testid="worktree-remove"
            onClick={() => void act(async () => setView(await api.sessions.removeWorktree(sessionId)))}>
            {t('worktree.bar.remove')}
          </button>
        </div>
      )}
      {view?.removed && (
        <div className="worktree-bar__actions" data-testid="worktree-removed">
          <p>{kept.length > 0 ? t('worktree.bar.removedKept', { Files: kept.join(', ') }) : t('worktree.bar.removedMerged')}</p>
          {kept.length > 0 && (
            <button type="button" className="btn btn--small" disabled={busy} data-testid="worktree-restore"
              onClick={() => void act(async () => setView(await api.sessions.restoreWorktree(sessionId)))}>
              {t('worktree.bar.restore')}
            </button>
          )}
        </div>
      )}
      <div role="status" className="worktree-bar__result" data-testid="worktree-result">
        {applied && (
          <>
            <p>{t('worktree.bar.applied', { Written: (applied.written ?? []).length, Same: (applied.same ?? []).length })}</p>
            {(applied.conflicts ?? []).length > 0 && (
              <p className="worktree-bar__conflicts" data-testid="worktree-conflicts">
                {t('worktree.bar.conflictsBelow', { Count: (applied.conflicts ?? []).length })}
              </p>
            )}
          </>
        )}
        {merged && <p>{t('worktree.bar.merged')}</p>}
      </div>
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="worktree-error" />}
    </section>
  );
}

/** Puts what Apply left as a conflict in the composer, hunk by hunk when the review can say which. */
async function publishConflicts(api: Api, sessionId: string, applied: Applied) {
  const files = applied.conflicts ?? [];
  if (files.length === 0) {
    showConflicts(sessionId, []);
    return;
  }
  try {
    showConflicts(sessionId, conflictsOf(await api.sessions.reviewWorktree(sessionId)));
  } catch {
    showConflicts(sessionId, files.map((path) => ({ path, hunks: [] })));
  }
}
