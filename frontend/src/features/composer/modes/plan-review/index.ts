import { savedText, type ComposerMode } from '../../ComposerMode';
import { PlanReviewBody, planPayload, type PlanReviewState } from './PlanReviewBody';

/** Approve leaves plan mode; Keep planning returns the feedback verbatim to the agent (R-PLAN-2). */
export const planReviewMode: ComposerMode<PlanReviewState> = {
  id: 'plan-review',
  decisionKind: 'plan_review',
  title: (d, t) => planPayload(d?.payload).title || t('composer.plan.untitled'),
  init: () => ({ feedback: '' }),
  Body: PlanReviewBody,
  actions: (_state, { t }) => [
    { id: 'keep_planning', label: t('decision.plan.keep_planning'), tone: 'secondary', testId: 'plan-keep-planning' },
    { id: 'approve', label: t('decision.plan.approve'), tone: 'primary', testId: 'plan-approve' },
  ],
  perform: async (id, state, ctx, decision) => {
    if (!decision || (id !== 'approve' && id !== 'keep_planning')) return;
    const feedback = state.feedback.trim();
    await ctx.resolve({ id: decision.id, choice: id, ...(id === 'keep_planning' && feedback ? { feedback } : {}) });
  },
  escape: 'stop',
  draft: {
    save: (s) => (s.feedback ? { feedback: s.feedback } : null),
    restore: (init, saved) => ({ ...init, feedback: savedText(saved, 'feedback') }),
  },
};
