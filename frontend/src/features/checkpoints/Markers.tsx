import type { CheckpointItem, FileChangeRef, RestoreItem, ReviewItem } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import type { TFunction } from '../../i18n/translate';
import { renderMessage } from '../transcript/message';
import { useCheckpointActions } from './actions';
import './checkpoints.css';

/** A file change as one short token: +created, −deleted, or the path of a modified file. */
function changeToken(c: FileChangeRef): string {
  return c.action === 'create' ? `+${c.path}` : c.action === 'delete' ? `−${c.path}` : c.path;
}

const MAX_LISTED = 6;

function ChangeList({ changes, t }: { changes: FileChangeRef[]; t: TFunction }) {
  const shown = changes.slice(0, MAX_LISTED);
  return (
    <span className="ckpt-mark__files mono" data-testid="checkpoint-files">
      {shown.map(changeToken).join(', ')}
      {changes.length > shown.length && ` ${t('checkpoint.more', { Count: changes.length - shown.length })}`}
    </span>
  );
}

/**
 * A snapshot in the transcript: before a turn, the place to restore from; after a tool call, what
 * the call changed (the shell's side effects too); at the turn's end, the way to its review. A
 * snapshot that could not be taken says so, since that step cannot be undone.
 */
export function CheckpointMarker({ item }: { item: CheckpointItem }) {
  const t = useT();
  const actions = useCheckpointActions();
  const c = item.checkpoint;
  const changes = c.changed ?? [];
  if (c.error) {
    return (
      <div className="ckpt-mark ckpt-mark--error" role="note" data-testid="checkpoint-failed" data-reason={c.reason}>
        {t('checkpoint.failed', { Why: renderMessage(t, { key: `error.${c.error}`, args: c.errorArgs }) ?? c.error })}
      </div>
    );
  }
  switch (c.reason) {
    case 'turn':
      return (
        <div className="ckpt-mark" data-testid="checkpoint-marker" data-checkpoint={c.checkpointId} data-reason="turn">
          <span className="ckpt-mark__dot" aria-hidden="true" />
          <span>{t('checkpoint.beforeTurn')}</span>
          {actions && c.checkpointId && (actions.restorable?.(item.turnId) ?? true) && (
            <button type="button" className="link-btn" data-testid="checkpoint-restore" onClick={() => actions.restore(c.checkpointId!)}>
              {t('checkpoint.restoreEllipsis')}
            </button>
          )}
        </div>
      );
    case 'after_tool':
      if (changes.length === 0) return null;
      return (
        <div className="ckpt-mark ckpt-mark--call" data-testid="checkpoint-call" data-call={item.callId}>
          <span>{t('checkpoint.callChanged', { Count: changes.length })}</span>
          <ChangeList changes={changes} t={t} />
          {actions && c.from ? (
            <button type="button" className="link-btn" data-testid="checkpoint-undo-call" onClick={() => actions.restore(c.from!)}>
              {t('checkpoint.restoreBeforeCall')}
            </button>
          ) : null}
        </div>
      );
    case 'turn_end':
      if (changes.length === 0) return null;
      return (
        <div className="ckpt-mark ckpt-mark--turn-end" data-testid="turn-changes" data-turn={item.turnId}>
          <span>{t('checkpoint.turnChanged', { Count: changes.length })}</span>
          <ChangeList changes={changes} t={t} />
          {actions && (
            <button type="button" className="btn btn--small" data-testid="review-changes" onClick={() => actions.review(item.turnId)}>
              {t('checkpoint.review')}
            </button>
          )}
        </div>
      );
    default:
      return null;
  }
}

/** A restore in the transcript: what came back, with Undo (itself a restore, previewed first). */
export function RestoreMarker({ item }: { item: RestoreItem }) {
  const t = useT();
  const actions = useCheckpointActions();
  const r = item.restore;
  const changes = r.changed ?? [];
  if (r.forkOf) {
    return (
      <div className="divider" data-testid="restore-forked-from">
        <span>{t('checkpoint.forkedFrom')}</span>
        {actions && (
          <button type="button" className="link-btn" onClick={() => actions.openSession(r.forkOf!)}>
            {t('checkpoint.openOriginal')}
          </button>
        )}
      </div>
    );
  }
  return (
    <div className="ckpt-mark ckpt-mark--restore" data-testid="restore-marker" data-scope={r.scope} data-checkpoint={r.checkpointId}>
      <span>{t(`checkpoint.restored.${r.scope}`, { ID: r.checkpointId, Count: changes.length })}</span>
      {changes.length > 0 && <ChangeList changes={changes} t={t} />}
      {actions && r.undoId ? (
        <button type="button" className="link-btn" data-testid="restore-undo" onClick={() => actions.restore(r.undoId!)}>
          {t('checkpoint.undoRestore')}
        </button>
      ) : null}
      {actions && r.forkId && (
        <button type="button" className="link-btn" data-testid="restore-open-fork" onClick={() => actions.openSession(r.forkId!)}>
          {t('checkpoint.openFork')}
        </button>
      )}
    </div>
  );
}

/** A verdict on a turn's change: accepted or reverted, whole or by hunk, with the person's reason. */
export function ReviewMarker({ item }: { item: ReviewItem }) {
  const t = useT();
  const actions = useCheckpointActions();
  const r = item.review;
  const hunks = r.hunks ?? [];
  const what = hunks.length
    ? t(`checkpoint.reviewed.${r.action}.hunks`, { Path: r.path, Hunks: hunks.map((h) => h + 1).join(', ') })
    : t(`checkpoint.reviewed.${r.action}.file`, { Path: r.path });
  return (
    <div className="ckpt-mark ckpt-mark--review" data-testid="review-marker" data-action={r.action}>
      <span>{what}</span>
      {r.reason && (
        <span className="ckpt-mark__reason" data-testid="review-marker-reason">
          “{r.reason}”
        </span>
      )}
      {actions && r.undoId ? (
        <button type="button" className="link-btn" data-testid="review-undo" onClick={() => actions.restore(r.undoId!)}>
          {t('checkpoint.undoRestore')}
        </button>
      ) : null}
    </div>
  );
}
