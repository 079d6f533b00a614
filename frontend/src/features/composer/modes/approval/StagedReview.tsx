import { Suspense } from 'react';
import type { StagedReview } from '../../../../bridge';
import type { TFunction } from '../../../../i18n/translate';
import { LazyDiffView, type FileChange } from '../../../diff/change';
import { ExpandableCode } from '../../ExpandableCode';
import type { ApprovalState } from './ApprovalBody';

/**
 * Review before apply: the staged change as the server's hunks, each kept or rejected with a
 * reason. "Apply" writes only the kept hunks; the rejected ones and their reasons reach the model
 * in the same turn.
 */
export function StagedReviewBody({
  change,
  review,
  state,
  setState,
  busy,
  t,
}: {
  change: FileChange;
  review: StagedReview;
  state: ApprovalState;
  setState: (next: ApprovalState | ((prev: ApprovalState) => ApprovalState)) => void;
  busy: boolean;
  t: TFunction;
}) {
  const rejected = state.rejected ?? {};
  const toggle = (i: number) =>
    setState((s) => {
      const next = { ...(s.rejected ?? {}) };
      if (i in next) delete next[i];
      else next[i] = '';
      return { ...s, rejected: next };
    });
  const hunkBar = (i: number) => (
    <span className="hunk-actions">
      {i in rejected && (
        <input
          className="input"
          data-testid="staged-hunk-reason"
          aria-label={t('composer.review.hunkReason', { Hunk: i + 1 })}
          placeholder={t('checkpoint.reasonPlaceholder')}
          maxLength={2000}
          value={rejected[i] ?? ''}
          readOnly={busy}
          onChange={(e) => setState((s) => ({ ...s, rejected: { ...(s.rejected ?? {}), [i]: e.target.value } }))}
        />
      )}
      <button
        type="button"
        className={`btn btn--small${i in rejected ? ' btn--danger' : ''}`}
        data-testid="staged-hunk-toggle"
        aria-pressed={i in rejected}
        disabled={busy}
        onClick={() => toggle(i)}
      >
        {t(i in rejected ? 'composer.review.rejected' : 'composer.review.reject')}
      </button>
    </span>
  );
  return (
    <div className="staged-review" data-testid="staged-review">
      <p className="decision__hint">{t('composer.review.lead')}</p>
      <Suspense fallback={<ExpandableCode text={change.after} testId="approval-summary" />}>
        <LazyDiffView change={change} hunks={review.hunks} hunkBar={hunkBar} hunkState={(i) => (i in rejected ? 'rejected' : undefined)} />
      </Suspense>
    </div>
  );
}

/** The verdicts to send: every hunk, kept unless rejected. */
export function verdictsOf(review: StagedReview | null | undefined, state: ApprovalState) {
  if (!review) return undefined;
  const rejected = state.rejected ?? {};
  return (review.hunks ?? []).map((_, i) =>
    i in rejected ? { hunk: i, accept: false, ...(rejected[i]?.trim() ? { reason: rejected[i]!.trim() } : {}) } : { hunk: i, accept: true },
  );
}
