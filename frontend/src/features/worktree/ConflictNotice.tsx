import { useStore } from '../../ui/store';
import { useT } from '../../i18n/I18nProvider';
import { conflictStore, showConflicts, type Conflict } from './conflicts';
import './worktree.css';

/**
 * In the composer: the task's changes that could not go into the person's folder because they
 * changed the same lines since, each file with its hunks, until the person reviews or dismisses them.
 */
export function ConflictNotice({ sessionId, onReview }: { sessionId: string; onReview: () => void }) {
  const t = useT();
  const conflicts = useStore(conflictStore)[sessionId] ?? [];
  if (conflicts.length === 0) return null;
  const named = (c: Conflict) => (c.hunks.length > 0 ? t('worktree.conflicts.fileHunks', { Path: c.path, Hunks: c.hunks.join(', ') }) : c.path);
  return (
    <section className="conflict-notice" role="status" aria-labelledby={`conflicts-${sessionId}`} data-testid="conflict-notice">
      <h2 id={`conflicts-${sessionId}`} className="conflict-notice__title">
        {t('worktree.conflicts.title', { Count: conflicts.length })}
      </h2>
      <ul className="conflict-notice__list">
        {conflicts.map((c) => (
          <li key={c.path} className="mono" data-testid="conflict-file">
            {named(c)}
          </li>
        ))}
      </ul>
      <div className="conflict-notice__actions">
        <button type="button" className="btn btn--small" data-testid="conflict-review" onClick={onReview}>
          {t('worktree.conflicts.review')}
        </button>
        <button type="button" className="btn btn--small btn--quiet" data-testid="conflict-dismiss" onClick={() => showConflicts(sessionId, [])}>
          {t('worktree.conflicts.dismiss')}
        </button>
      </div>
    </section>
  );
}
