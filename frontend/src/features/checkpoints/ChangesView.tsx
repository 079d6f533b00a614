import { Suspense, useCallback, useEffect, useState } from 'react';
import type { Api, FileReview, ReviewState, TurnChanges } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import type { TFunction } from '../../i18n/translate';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { Spinner } from '../../ui/Spinner';
import { LazyDiffView } from '../diff/change';
import { PaneHead } from './PaneHead';
import './checkpoints.css';

type Load = { status: 'loading' } | { status: 'ready'; changes: TurnChanges } | { status: 'error'; error: unknown };

// Go sends a verdict as a plain string: one this build does not know shows as pending does.
const STATE_TONE: Partial<Record<string, string>> = { pending: 'muted', accepted: 'ok', reverted: 'danger' } satisfies Record<ReviewState, string>;

/**
 * A turn's "Changes": every file it changed, as the server's hunks, each accepted or reverted on
 * its own or with its whole file. A reason given with a verdict reaches the model at the next turn.
 */
export function ChangesView({ api, sessionId, turnId, onClose }: { api: Api; sessionId: string; turnId: string; onClose: () => void }) {
  const t = useT();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [actionError, setActionError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    try {
      setLoad({ status: 'ready', changes: await api.checkpoints.changes(sessionId, turnId) });
    } catch (error) {
      setLoad({ status: 'error', error });
    }
  }, [api, sessionId, turnId]);
  useEffect(() => void reload(), [reload]);

  const review = async (path: string, action: 'accept' | 'revert', hunks: number[], reason: string) => {
    setBusy(true);
    setActionError(null);
    try {
      const changes = await api.checkpoints.review({ sessionId, turnId, path, action, hunks, reason: reason.trim() });
      setLoad({ status: 'ready', changes });
      return true;
    } catch (err) {
      setActionError(err);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const files = load.status === 'ready' ? (load.changes.files ?? []) : [];
  return (
    <section className="review-pane" data-testid="changes-view" data-turn={turnId} aria-labelledby="changes-title">
      <PaneHead
        titleId="changes-title"
        title={t('checkpoint.changes.title')}
        lead={load.status === 'ready' && t('checkpoint.changes.count', { Count: files.length })}
        onClose={onClose}
      />
      <p className="review-pane__lead">{t('checkpoint.changes.lead')}</p>
      {actionError !== null && <ErrorNotice error={actionError} onDismiss={() => setActionError(null)} testId="review-error" />}
      {load.status === 'loading' && <Spinner label={t('shell.state.loading')} />}
      {load.status === 'error' && <ErrorNotice error={load.error} onRetry={() => void reload()} testId="changes-error" />}
      {load.status === 'ready' && load.changes.running && <p className="review-pane__note">{t('checkpoint.changes.running')}</p>}
      {load.status === 'ready' && files.length === 0 && <p className="review-pane__lead">{t('checkpoint.changes.none')}</p>}
      <div className="review-pane__files">
        {files.map((f) => (
          <ReviewFile key={f.path} file={f} busy={busy} t={t} onReview={review} />
        ))}
      </div>
    </section>
  );
}

function ReviewFile({
  file,
  busy,
  t,
  onReview,
}: {
  file: FileReview;
  busy: boolean;
  t: TFunction;
  onReview: (path: string, action: 'accept' | 'revert', hunks: number[], reason: string) => Promise<boolean>;
}) {
  const [reason, setReason] = useState('');
  const [hunkReasons, setHunkReasons] = useState<Record<number, string>>({});
  const states = file.hunkStates ?? [];
  const byHunk = (file.hunks?.length ?? 0) > 0 && !file.omitted;
  const act = async (action: 'accept' | 'revert', hunks: number[], why: string) => {
    if (await onReview(file.path, action, hunks, why)) {
      if (hunks.length === 0) setReason('');
      else setHunkReasons((r) => ({ ...r, [hunks[0]!]: '' }));
    }
  };
  const hunkBar = (i: number) => {
    const state = states[i] ?? 'pending';
    if (state !== 'pending') {
      return (
        <span className="hunk-actions">
          <span className={`badge badge--${STATE_TONE[state] ?? 'muted'}`} data-testid="hunk-state">
            {t(`checkpoint.state.${state}`)}
          </span>
        </span>
      );
    }
    return (
      <VerdictBar
        kind="hunk"
        path={file.path}
        reason={hunkReasons[i] ?? ''}
        setReason={(v) => setHunkReasons((r) => ({ ...r, [i]: v }))}
        busy={busy}
        t={t}
        onAct={(action) => void act(action, [i], hunkReasons[i] ?? '')}
      />
    );
  };
  return (
    <article className="review-file" data-testid="review-file" data-path={file.path} data-state={file.state}>
      <header className="review-file__head">
        <code className="review-file__path mono">{file.path}</code>
        <span className="badge badge--muted">{t(`checkpoint.action.${file.action}`)}</span>
        {file.state !== 'pending' && (
          <span className={`badge badge--${STATE_TONE[file.state] ?? 'muted'}`} data-testid="file-state">
            {t(`checkpoint.state.${file.state}`)}
          </span>
        )}
        <VerdictBar
          kind="file"
          path={file.path}
          reason={reason}
          setReason={setReason}
          busy={busy}
          t={t}
          onAct={(action) => void act(action, [], reason)}
          revertLabel={t(file.action === 'create' ? 'checkpoint.revertCreated' : 'checkpoint.revertFile')}
        />
      </header>
      <Suspense fallback={<Spinner label={t('shell.state.loading')} />}>
        <LazyDiffView
          change={{ path: file.path, before: file.before, after: file.after, created: file.action === 'create', omitted: file.omitted }}
          hunks={byHunk ? file.hunks : undefined}
          hunkBar={byHunk ? hunkBar : undefined}
          hunkState={(i) => states[i]}
        />
      </Suspense>
      {(file.reasons ?? []).length > 0 && (
        <ul className="restore-list" data-testid="file-reasons">
          {(file.reasons ?? []).map((r, i) => (
            <li key={i}>“{r}”</li>
          ))}
        </ul>
      )}
    </article>
  );
}

/**
 * A verdict's reason box with Accept and Revert, for one hunk (in the diff's hunk bar) or a whole
 * file (in its header, where reverting is the dangerous button and says what it undoes).
 */
function VerdictBar({
  kind,
  path,
  reason,
  setReason,
  busy,
  t,
  onAct,
  revertLabel,
}: {
  kind: 'hunk' | 'file';
  path: string;
  reason: string;
  setReason: (reason: string) => void;
  busy: boolean;
  t: TFunction;
  onAct: (action: 'accept' | 'revert') => void;
  /** The file's Revert button's words; a hunk's says "revert". */
  revertLabel?: string;
}) {
  const file = kind === 'file';
  const Wrap = file ? 'div' : 'span';
  return (
    <Wrap className={file ? 'review-file__actions' : 'hunk-actions'}>
      <input
        className={file ? 'input review-reason' : 'input'}
        data-testid={`${kind}-reason`}
        aria-label={t('checkpoint.reasonLabel', { Path: path })}
        placeholder={t('checkpoint.reasonPlaceholder')}
        maxLength={2000}
        value={reason}
        readOnly={busy}
        onChange={(e) => setReason(e.target.value)}
      />
      <button type="button" className="btn btn--small" data-testid={`${kind}-accept`} disabled={busy} onClick={() => onAct('accept')}>
        {t(file ? 'checkpoint.acceptFile' : 'checkpoint.accept')}
      </button>
      <button
        type="button"
        className={file ? 'btn btn--small btn--danger' : 'btn btn--small'}
        data-testid={`${kind}-revert`}
        disabled={busy}
        onClick={() => onAct('revert')}
      >
        {revertLabel ?? t('checkpoint.revert')}
      </button>
    </Wrap>
  );
}
