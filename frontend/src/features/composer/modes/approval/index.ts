import type { ComposerMode } from '../../ComposerMode';
import { toolLabel } from '../../toolLabel';
import { ApprovalBody, approvalPayload, type ApprovalState } from './ApprovalBody';

const CHOICES = ['allow_once', 'allow_session', 'allow_always', 'reject'] as const;

/** Allow once / Allow for this session / Always allow / Reject with a reason (R-DEC-4). */
export const approvalMode: ComposerMode<ApprovalState> = {
  id: 'approval',
  decisionKind: 'approval',
  title: (d, t) => toolLabel(t, approvalPayload(d?.payload).tool),
  init: () => ({ reason: '' }),
  Body: ApprovalBody,
  actions: (state, { t }) => [
    {
      id: 'reject',
      label: state.reason.trim() ? t('composer.approval.rejectWithReason') : t('decision.approval.reject'),
      tone: 'danger',
      testId: 'approval-reject',
    },
    { id: 'allow_always', label: t('decision.approval.allow_always'), tone: 'secondary', testId: 'approval-allow-always' },
    { id: 'allow_session', label: t('decision.approval.allow_session'), tone: 'secondary', testId: 'approval-allow-session' },
    { id: 'allow_once', label: t('decision.approval.allow_once'), tone: 'primary', testId: 'approval-allow-once' },
  ],
  perform: async (id, state, ctx, decision) => {
    if (!decision || !CHOICES.includes(id as (typeof CHOICES)[number])) return;
    const reason = state.reason.trim();
    await ctx.resolve({ id: decision.id, choice: id, ...(id === 'reject' && reason ? { reason } : {}) });
  },
  escape: 'stop',
};
