import { Suspense, useEffect, useId, useState } from 'react';
import { RESTORE_SCOPES, type Api, type RestorePreview, type RestoreScope, type Session } from '../../bridge';
import { useI18n } from '../../i18n/I18nProvider';
import type { TFunction } from '../../i18n/translate';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { Spinner } from '../../ui/Spinner';
import { LazyDiffView } from '../diff/change';
import { fullDateTime } from '../sessions/formatTime';
import { PaneHead } from './PaneHead';
import './checkpoints.css';

/**
 * The pane's title, by what the restore does and when its checkpoint was taken, never by the
 * checkpoint's number (which the person never saw): undoing a restore or a revert says so.
 */
export function restoreTitle(t: TFunction, p: RestorePreview | null, lang: string): string {
  if (!p) return t('checkpoint.restore.titlePending');
  const when = fullDateTime(p.checkpoint.createdAt, lang);
  if (p.checkpoint.reason === 'before_restore') return t('checkpoint.restore.titleUndoRestore', { When: when });
  if (p.checkpoint.reason === 'before_review') return t('checkpoint.restore.titleUndoReview', { When: when });
  return t('checkpoint.restore.title', { When: when });
}

type Load = { status: 'loading' } | { status: 'ready'; preview: RestorePreview } | { status: 'error'; error: unknown };

/**
 * Restoring a checkpoint: the files, the conversation (a new session forked before its turn) or
 * both. Nothing happens before the person has seen every file it changes, with its diff, and the
 * files it deletes; the deletes confirmed are the ones shown, so a file made since is never
 * deleted unseen. A restore is itself undoable from the transcript.
 */
export function RestoreView({
  api,
  sessionId,
  checkpointId,
  onClose,
  onForked,
}: {
  api: Api;
  sessionId: string;
  checkpointId: number;
  onClose: () => void;
  onForked: (fork: Session) => void;
}) {
  const { t, lang } = useI18n();
  const name = useId();
  const [scope, setScope] = useState<RestoreScope>('files');
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let live = true;
    setLoad({ status: 'loading' });
    setError(null);
    api.checkpoints.preview(sessionId, checkpointId, scope).then(
      (preview) => live && setLoad({ status: 'ready', preview }),
      (err) => live && setLoad({ status: 'error', error: err }),
    );
    return () => {
      live = false;
    };
  }, [api, sessionId, checkpointId, scope]);

  const confirm = async () => {
    if (load.status !== 'ready') return;
    setBusy(true);
    setError(null);
    try {
      const done = await api.checkpoints.restore(sessionId, checkpointId, scope, load.preview.deletes ?? []);
      if (done?.fork) onForked(done.fork);
      else onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const p = load.status === 'ready' ? load.preview : null;
  const files = p?.files ?? [];
  const deletes = p?.deletes ?? [];
  const nothing = p !== null && scope === 'files' && files.length === 0;
  return (
    <section className="review-pane" data-testid="restore-view" data-checkpoint={checkpointId} aria-labelledby="restore-title">
      <PaneHead
        titleId="restore-title"
        title={restoreTitle(t, p, lang)}
        lead={p && fullDateTime(p.checkpoint.createdAt, lang)}
        onClose={onClose}
      />
      <div className="restore-scope choices" role="radiogroup" aria-label={t('checkpoint.restore.scope')}>
        {RESTORE_SCOPES.map((s) => (
          <label key={s} className={`choice${scope === s ? ' is-checked' : ''}`} data-testid={`restore-scope-${s}`}>
            <input type="radio" name={name} checked={scope === s} disabled={busy} onChange={() => setScope(s)} />
            <span>{t(`checkpoint.scope.${s}`)}</span>
          </label>
        ))}
      </div>
      {load.status === 'loading' && <Spinner label={t('shell.state.loading')} />}
      {load.status === 'error' && <ErrorNotice error={load.error} testId="restore-preview-error" />}
      {p && scope !== 'files' && (
        <p className="review-pane__note" data-testid="restore-fork-note">
          {t('checkpoint.restore.forkNote', { Prompt: p.prompt ?? '' })}
        </p>
      )}
      {p && scope !== 'conversation' && (
        <>
          <p className="review-pane__lead" data-testid="restore-lead">
            {nothing ? t('checkpoint.restore.nothing') : t('checkpoint.restore.lead', { Count: files.length })}
          </p>
          {deletes.length > 0 && (
            <div data-testid="restore-deletes">
              <p className="review-pane__lead">{t('checkpoint.restore.deletes', { Count: deletes.length })}</p>
              <ul className="restore-list restore-list--delete">
                {deletes.map((d) => (
                  <li key={d} className="mono" data-testid="restore-delete">
                    {d}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <div className="review-pane__files">
            {files.map((f) => (
              <article key={f.path} className="review-file" data-testid="restore-file" data-path={f.path} data-action={f.action}>
                <header className="review-file__head">
                  <code className="review-file__path mono">{f.path}</code>
                  <span className="badge badge--muted">{t(f.unrestorable ? 'checkpoint.restore.unrestorable' : `checkpoint.restoreAction.${f.action}`)}</span>
                </header>
                {!f.unrestorable && (
                  <Suspense fallback={<Spinner label={t('shell.state.loading')} />}>
                    <LazyDiffView change={{ path: f.path, before: f.before, after: f.after, omitted: f.omitted }} hunks={f.omitted ? undefined : f.hunks} />
                  </Suspense>
                )}
              </article>
            ))}
          </div>
        </>
      )}
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="restore-error" />}
      <footer className="review-pane__foot">
        <button type="button" className="btn" onClick={onClose} disabled={busy} data-testid="restore-cancel">
          {t('checkpoint.cancel')}
        </button>
        <button
          type="button"
          className="btn btn--primary"
          data-testid="restore-confirm"
          disabled={busy || load.status !== 'ready' || nothing}
          onClick={() => void confirm()}
        >
          {t(deletes.length > 0 && scope !== 'conversation' ? 'checkpoint.restore.confirmDeleting' : `checkpoint.restore.confirm.${scope}`, {
            Count: deletes.length,
          })}
        </button>
      </footer>
    </section>
  );
}
