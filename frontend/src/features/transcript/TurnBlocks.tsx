import { memo, type ReactNode } from 'react';
import type { Turn } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import type { TFunction } from '../../i18n/translate';
import { codedText, isMessage, renderMessage } from './message';
import { PlayIcon, StopIcon } from '../../ui/icons';

/** Where a turn begins: its resolved execution mode and the router's reason (R-MODE-2). */
export const TurnChip = memo(function TurnChip({ turn }: { turn: Turn }) {
  const t = useT();
  const args = (turn.reasonArgs ?? undefined) as Record<string, string | number> | undefined;
  // route.reason.override names the mode by its label; the server may send the raw mode.
  const reasonArgs = args && typeof args.Mode === 'string' ? { ...args, Mode: modeName(t, args.Mode) } : args;
  const reason = turn.reasonKey ? t(turn.reasonKey, reasonArgs) : t(`mode.label.${turn.executionMode}`);
  return (
    <div className="turn-chip-row">
      <span className={`turn-chip turn-chip--${turn.executionMode}`} data-testid="turn-chip" data-mode={turn.executionMode}>
        <span className="turn-chip__mode">{t(`mode.label.${turn.executionMode}`)}</span>
        <span className="turn-chip__reason">{stripLead(reason)}</span>
      </span>
      {turn.temporary && <span className="badge badge--muted">{t('composer.turn.temporary')}</span>}
    </div>
  );
});

function modeName(t: (k: string) => string, mode: string): string {
  const key = `mode.label.${mode}`;
  const s = t(key);
  return s === key ? mode : s;
}

/** "Plan — the request asks for a design" is shown as the chip "Plan | the request asks for a design". */
function stripLead(reason: string): string {
  const i = reason.indexOf(' — ');
  return i > 0 && i < 24 ? reason.slice(i + 3) : reason;
}

/** Where a turn ends: working (with Stop), or how it ended — interrupted turns offer Continue. */
export const TurnEnd = memo(function TurnEnd({
  turn,
  waiting = false,
  onStop,
  onContinue,
  canContinue,
}: {
  turn: Turn;
  /** The turn waits for the person's decision: it is not working meanwhile. */
  waiting?: boolean;
  onStop: () => void;
  onContinue: () => void;
  canContinue: boolean;
}) {
  const t = useT();
  switch (turn.status) {
    case 'running':
      return (
        <div
          className={`turn-end turn-end--running${waiting ? ' is-waiting' : ''}`}
          data-testid="turn-status"
          data-status="running"
          data-waiting={waiting || undefined}
        >
          {!waiting && (
            <span className="turn-end__dots" aria-hidden="true">
              <i />
              <i />
              <i />
            </span>
          )}
          <span>{t(waiting ? 'composer.turn.waiting' : 'composer.turn.running')}</span>
          <button type="button" className="link-btn" data-testid="turn-stop" onClick={onStop}>
            <StopIcon size={12} />
            {t('composer.action.stop')}
          </button>
        </div>
      );
    case 'interrupted':
      return (
        <Ended status="interrupted" tone="warn" label={t('composer.turn.interrupted')}>
          {canContinue && <GoOn label={t('composer.turn.continue')} onClick={onContinue} />}
        </Ended>
      );
    case 'failed':
      return (
        <Ended status="failed" tone="error" label={t('composer.turn.failed')} detail={turn.error ? failureText(t, turn) : ''}>
          {canContinue && <GoOn label={t('composer.turn.retry')} onClick={onContinue} />}
        </Ended>
      );
    case 'cancelled':
      // A turn stopped at its step limit says so, and may go on from there.
      return (
        <Ended status="cancelled" label={t('composer.turn.cancelled')} detail={turn.error ? failureText(t, turn) : ''}>
          {turn.error && canContinue && <GoOn label={t('composer.turn.continue')} onClick={onContinue} />}
        </Ended>
      );
    case 'unverified':
      return (
        <Ended status="unverified" tone="warn" label={t('composer.turn.unverified')} detail={turn.error ? failureText(t, turn) : ''} />
      );
    default:
      return <div className="turn-end turn-end--done" data-testid="turn-status" data-status={turn.status} aria-hidden="true" />;
  }
});

/** How a turn ended: the word for it, why (when known), and what the person can do next. */
function Ended({
  status,
  tone,
  label,
  detail = '',
  children,
}: {
  status: string;
  tone?: 'warn' | 'error';
  label: string;
  detail?: string;
  children?: ReactNode;
}) {
  return (
    <div
      className={`turn-end${tone ? ` turn-end--${tone}` : ''}`}
      data-testid="turn-status"
      data-status={status}
      role={tone === 'error' ? 'note' : undefined}
    >
      <span className={tone === 'error' ? 'turn-end__label' : undefined}>{label}</span>
      {detail && (
        <span className="turn-end__detail" data-testid="turn-error">
          {detail}
        </span>
      )}
      {children}
    </div>
  );
}

/** Asks the model to pick up where an ended turn stopped. */
function GoOn({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="btn btn--small" data-testid="turn-continue" onClick={onClick}>
      <PlayIcon size={12} />
      {label}
    </button>
  );
}

/** Why a turn failed, in the person's language: the message turn.ended carried, else the stored error's code. */
function failureText(t: TFunction, turn: Turn): string {
  const said = isMessage(turn.failure) ? renderMessage(t, turn.failure) : null;
  return said ?? codedText(t, turn.error);
}
