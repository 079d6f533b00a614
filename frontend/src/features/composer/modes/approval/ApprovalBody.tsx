import type { ApprovalPayload } from '../../../../bridge';
import { fieldsOf } from '../../../../bridge/wire';
import type { ModeBodyProps } from '../../ComposerMode';
import { ExpandableCode } from '../../ExpandableCode';

export interface ApprovalState {
  reason: string;
}

export function approvalPayload(p: unknown): ApprovalPayload {
  const o = fieldsOf<ApprovalPayload>(p);
  return { tool: o.tool ?? '', kind: o.kind ?? '', summary: o.summary ?? o.command ?? o.path ?? '', path: o.path, command: o.command, code: o.code, reasonKey: o.reasonKey };
}

/** What the agent wants to do, in full, and why the gate asks; a reason field for Reject. */
export function ApprovalBody({ state, setState, decision, ctx, run, busy }: ModeBodyProps<ApprovalState>) {
  const { t } = ctx;
  const p = approvalPayload(decision?.payload);
  const why = p.reasonKey ? t(p.reasonKey) : '';
  return (
    <div className="decision decision--approval" data-testid="approval">
      <p className="decision__lead">
        {t('composer.approval.lead')}
        {why && why !== p.reasonKey && <span className="decision__why"> · {why}</span>}
      </p>
      <ExpandableCode text={p.summary} testId="approval-summary" />
      <input
        className="input decision__reason"
        data-testid="approval-reason"
        aria-label={t('composer.approval.reasonLabel')}
        placeholder={t('decision.approval.reason_placeholder')}
        value={state.reason}
        readOnly={busy}
        maxLength={2000}
        onChange={(e) => setState({ reason: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
            e.preventDefault();
            run('reject');
          }
        }}
      />
    </div>
  );
}
