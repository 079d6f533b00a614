import { savedText, type ComposerMode } from '../../ComposerMode';
import { toolLabel } from '../../toolLabel';
import { ApprovalBody, approvalPayload, type ApprovalState } from './ApprovalBody';
import { verdictsOf } from './StagedReview';

const CHOICES = ['allow_once', 'allow_session', 'allow_always', 'reject'] as const;
/** The answers that save something, and so carry the scope the card showed. */
const SAVING = ['allow_session', 'allow_always'];

/**
 * Allow once / Allow for this session / Always allow / Reject with a reason (R-DEC-4). A step out
 * of the sandbox offers only Allow once and Reject: no saved answer may cover it. Changing the
 * repository's .git (the "git" escalation) may also be allowed for this session, never always. A
 * protected or sensitive path offers only Allow once and Reject too.
 */
export const approvalMode: ComposerMode<ApprovalState> = {
  id: 'approval',
  decisionKind: 'approval',
  title: (d, t) => {
    const p = approvalPayload(d?.payload);
    // A host the network proxy asks about is named, not the command that wanted it.
    return p.kind === 'host' ? t('composer.approval.hostTitle', { Host: p.summary }) : toolLabel(t, p.tool);
  },
  init: () => ({ reason: '', scope: 'exact', rejected: {} }),
  Body: ApprovalBody,
  actions: (state, { t }, decision) => {
    const p = approvalPayload(decision?.payload);
    // A protected or sensitive path is asked about call by call: no saved answer may cover it.
    const perCall = p.code === 'PROTECTED_PATH' || p.code === 'SENSITIVE_PATH';
    const once = p.escalation !== undefined || perCall;
    const session = !perCall && (p.escalation === undefined || p.escalation === 'git');
    if (p.toolChanged) {
      // An MCP tool that changed since it was approved: allowing the call approves the change.
      return [
        { id: 'reject', label: state.reason.trim() ? t('composer.approval.rejectWithReason') : t('decision.approval.reject'), tone: 'danger' as const, testId: 'approval-reject' },
        { id: 'allow_once', label: t('composer.approval.approveChange'), tone: 'primary' as const, testId: 'approval-approve-change' },
      ];
    }
    const total = p.review?.hunks?.length ?? 0;
    const kept = total - Object.keys(state.rejected ?? {}).length;
    return [
      {
        id: 'reject',
        label: state.reason.trim() ? t('composer.approval.rejectWithReason') : t('decision.approval.reject'),
        tone: 'danger' as const,
        testId: 'approval-reject',
      },
      ...(once
        ? []
        : [{ id: 'allow_always', label: t('decision.approval.allow_always'), tone: 'secondary' as const, testId: 'approval-allow-always' }]),
      ...(session
        ? [{ id: 'allow_session', label: t('decision.approval.allow_session'), tone: 'secondary' as const, testId: 'approval-allow-session' }]
        : []),
      {
        id: 'allow_once',
        label: kept < total ? t('composer.review.applySome', { Kept: kept, Total: total }) : t('decision.approval.allow_once'),
        tone: 'primary' as const,
        testId: 'approval-allow-once',
        disabled: total > 0 && kept === 0,
      },
    ];
  },
  perform: async (id, state, ctx, decision) => {
    if (!decision || !CHOICES.includes(id as (typeof CHOICES)[number])) return;
    const reason = state.reason.trim();
    const p = approvalPayload(decision.payload);
    const offered = p.scopes.some((s) => s.id === state.scope);
    const hunks = id === 'reject' ? undefined : verdictsOf(p.review, state);
    await ctx.resolve({
      id: decision.id,
      choice: id,
      ...(hunks ? { hunks } : {}),
      ...(id === 'reject' && reason ? { reason } : {}),
      ...(SAVING.includes(id) && offered && state.scope !== 'exact' ? { scope: state.scope } : {}),
    });
  },
  escape: 'stop',
  draft: {
    save: (s) => (s.reason || Object.keys(s.rejected ?? {}).length ? { reason: s.reason, rejected: s.rejected ?? {} } : null),
    restore: (init, saved) => ({ ...init, reason: savedText(saved, 'reason'), rejected: rejectedOf(saved) }),
  },
};

/** The hunks a kept draft rejected, with their reasons; anything else in it is dropped. */
function rejectedOf(saved: unknown): Record<number, string> {
  const raw = saved && typeof saved === 'object' ? (saved as { rejected?: unknown }).rejected : undefined;
  if (!raw || typeof raw !== 'object') return {};
  const out: Record<number, string> = {};
  for (const [k, v] of Object.entries(raw)) if (/^\d+$/.test(k) && typeof v === 'string') out[Number(k)] = v;
  return out;
}
