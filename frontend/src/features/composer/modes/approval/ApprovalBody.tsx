import { Suspense, useId } from 'react';
import type { ApprovalPayload, ScopeId, ScopeOption } from '../../../../bridge';
import { fieldsOf } from '../../../../bridge/wire';
import type { TFunction } from '../../../../i18n/translate';
import type { ModeBodyProps } from '../../ComposerMode';
import { isFileChange, LazyDiffView } from '../../../diff/change';
import { ExpandableCode } from '../../ExpandableCode';
import { ReasonField } from '../../ReasonField';
import { StagedReviewBody } from './StagedReview';

export interface ApprovalState {
  reason: string;
  /** What "Allow for this session" and "Always allow" save; exact unless the person picks the prefix. */
  scope: ScopeId;
  /** A staged change's hunks the person rejects (review before apply), with their reasons. */
  rejected?: Record<number, string>;
}

function scopesOf(raw: unknown): ScopeOption[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .map((s) => fieldsOf<ScopeOption>(s))
    .filter((s): s is ScopeOption => s.id === 'exact' || s.id === 'prefix');
}

export function approvalPayload(p: unknown): ApprovalPayload & { scopes: ScopeOption[] } {
  const o = fieldsOf<ApprovalPayload>(p);
  return {
    tool: o.tool ?? '',
    kind: o.kind ?? '',
    summary: o.summary ?? o.command ?? o.path ?? '',
    path: o.path,
    command: o.command,
    code: o.code,
    reasonKey: o.reasonKey,
    reasonArgs: o.reasonArgs,
    scopes: scopesOf(o.scopes),
    escalation: o.escalation || undefined,
    agent: o.agent,
    diff: o.diff,
    change: o.change,
    server: o.server,
    toolChanged: o.toolChanged === true || undefined,
    review: o.review && Array.isArray(o.review.hunks) && o.review.hunks.length > 0 ? o.review : undefined,
  };
}

/** A unified diff's lines, each marked as added, removed, a hunk header or context. */
export function DiffLines({ text }: { text: string }) {
  return (
    <>
      {text.split('\n').map((line, i, all) => {
        const kind = line.startsWith('+++') || line.startsWith('---') ? 'file' : line.startsWith('@@') ? 'hunk' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'ctx';
        return (
          <span key={i} className={`diff-line diff-line--${kind}`} data-diff={kind}>
            {line}
            {i < all.length - 1 ? '\n' : ''}
          </span>
        );
      })}
    </>
  );
}

/** A reason key in words, or '' when the catalog has no such key. */
export function reasonText(t: TFunction, key: string | undefined, args: ApprovalPayload['reasonArgs']): string {
  if (!key) return '';
  const text = t(key, args ?? undefined);
  return text === key ? '' : text;
}

/** What a saved scope matches, as the person will see it in Settings: a prefix ends in "…". */
function scopeText(s: ScopeOption): string {
  const subject = s.command || s.path || s.mcp || '';
  return s.id === 'prefix' ? `${subject} …` : subject;
}

/** What the agent wants to do, in full, and why the gate asks; the scope a saved answer keeps; a reason field for Reject. */
export function ApprovalBody({ state, setState, decision, ctx, run, busy }: ModeBodyProps<ApprovalState>) {
  const { t } = ctx;
  const name = useId();
  const p = approvalPayload(decision?.payload);
  const why = reasonText(t, p.reasonKey, p.reasonArgs);
  // An external agent's change is shown as the diff it sent; its command or other detail as is.
  const diff = p.diff && p.diff === p.summary ? p.diff : '';
  return (
    <div className="decision decision--approval" data-testid="approval" data-agent={p.agent || undefined}>
      <p className="decision__lead">
        {p.agent ? <span data-testid="approval-agent">{t('composer.approval.agentLead', { Agent: p.agent })}</span> : t('composer.approval.lead')}
        {why && <span className="decision__why"> · {why}</span>}
      </p>
      {p.toolChanged && (
        <p className="decision__hint decision__hint--warn" data-testid="approval-tool-changed">
          {t('composer.approval.toolChanged', { Server: p.server ?? '' })}
        </p>
      )}
      {isFileChange(p.change) && p.review ? (
        <StagedReviewBody change={p.change} review={p.review} state={state} setState={setState} busy={busy} t={t} />
      ) : isFileChange(p.change) ? (
        <Suspense fallback={<ExpandableCode text={p.summary} testId="approval-summary" />}>
          <LazyDiffView change={p.change} />
        </Suspense>
      ) : (
        <>
          <ExpandableCode text={p.summary} testId="approval-summary" render={diff ? (s) => <DiffLines text={s} /> : undefined} />
          {p.diff && !diff && <ExpandableCode text={p.diff} testId="approval-diff" render={(s) => <DiffLines text={s} />} />}
        </>
      )}
      {p.escalation ? (
        <p className="decision__hint decision__hint--warn" data-testid="approval-escalation">
          {t(p.escalation === 'git' ? 'composer.approval.escalationGit' : 'composer.approval.escalationOnce')}
        </p>
      ) : (
        <ScopeChoice name={name} scopes={p.scopes} value={state.scope} busy={busy} t={t} onChange={(scope) => setState((s) => ({ ...s, scope }))} />
      )}
      <ReasonField
        testId="approval-reason"
        label={t('composer.approval.reasonLabel')}
        placeholder={t(p.agent ? 'composer.approval.externalReasonPlaceholder' : 'decision.approval.reason_placeholder')}
        value={state.reason}
        busy={busy}
        onChange={(reason) => setState((s) => ({ ...s, reason }))}
        onRefuse={() => run('reject')}
      />
    </div>
  );
}

/** The scope shown before the person confirms a saved answer: one line, or a choice of two. */
function ScopeChoice({
  name,
  scopes,
  value,
  busy,
  t,
  onChange,
}: {
  name: string;
  scopes: ScopeOption[];
  value: ScopeId;
  busy: boolean;
  t: TFunction;
  onChange: (scope: ScopeId) => void;
}) {
  if (scopes.length === 0) return null;
  const label = <span id={`${name}-scope`}>{t('composer.approval.scopeLead')}</span>;
  if (scopes.length === 1) {
    return (
      <p className="decision__hint approval-scope" data-testid="approval-scope">
        {label} <code data-testid="approval-scope-exact">{scopeText(scopes[0]!)}</code>
      </p>
    );
  }
  return (
    <div className="approval-scope" data-testid="approval-scope">
      <p className="decision__hint">{label}</p>
      <div className="choices" role="radiogroup" aria-labelledby={`${name}-scope`}>
        {scopes.map((s) => (
          <label key={s.id} className={`choice${value === s.id ? ' is-checked' : ''}`} data-testid={`approval-scope-${s.id}`}>
            <input type="radio" name={name} checked={value === s.id} disabled={busy} onChange={() => onChange(s.id)} />
            <span>
              {t(`composer.approval.scope.${s.id}`)} <code>{scopeText(s)}</code>
            </span>
          </label>
        ))}
      </div>
    </div>
  );
}
