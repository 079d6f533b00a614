import type { DecisionKind, ExecutionMode, QueueItem, Turn } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import type { Note } from './decisionQueue';
import { ClockIcon, CloseSmallIcon } from '../../ui/icons';
import { preferenceLabelKey } from './selector';

/**
 * The band above the box: the running turn's resolved mode, queued switches ("Next turn: Chat",
 * each cancellable), messages waiting for the next turn, more decisions waiting behind the one
 * shown, and the one-line note of a decision that ended without an answer.
 */
export function ChipsBand({
  runningTurn,
  runningAs = null,
  waitingFor = null,
  queue,
  waiting,
  note,
  onUnqueue,
  onDismissNote,
}: {
  runningTurn: Turn | null;
  /** What the running turn runs as now (a plan approved inside it changes it); null: its start. */
  runningAs?: ExecutionMode | null;
  /** The decision the turn waits on, if any: then the chip says so rather than "running". */
  waitingFor?: DecisionKind | null;
  queue: QueueItem[];
  /** Decisions queued behind the head. */
  waiting: number;
  note: Note | null;
  onUnqueue: (index: number) => void;
  onDismissNote: () => void;
}) {
  const t = useT();
  const messages = queue.filter((q) => q.message_id && !q.switch).length;
  return (
    <>
      {runningTurn && (
        <span
          className={`chip chip--turn${waitingFor ? ' chip--waiting' : ''}`}
          data-testid="chip-turn"
          data-mode={runningAs ?? runningTurn.executionMode}
          data-waiting={waitingFor ?? undefined}
        >
          <span className="chip__pulse" aria-hidden="true" />
          {waitingFor
            ? t(`composer.chip.waiting.${waitingFor}`, { Mode: t(`mode.label.${runningAs ?? runningTurn.executionMode}`) })
            : t('composer.chip.running', { Mode: t(`mode.label.${runningAs ?? runningTurn.executionMode}`) })}
        </span>
      )}
      {queue.map((q, i) =>
        q.switch ? (
          <span key={`switch-${i}`} className="chip chip--queued" data-testid="chip-queued-switch">
            <ClockIcon size={13} />
            {t('composer.chip.nextTurn', {
              Mode: t(preferenceLabelKey({ interactionMode: q.switch.interaction_mode, executionOverride: q.switch.execution_override })),
            })}
            <button
              type="button"
              className="chip__close"
              data-testid="chip-unqueue"
              aria-label={t('composer.chip.unqueue')}
              title={t('composer.chip.unqueue')}
              onClick={() => onUnqueue(i)}
            >
              <CloseSmallIcon size={12} />
            </button>
          </span>
        ) : null,
      )}
      {messages > 0 && (
        <span className="chip" data-testid="chip-queued-messages">
          {t('composer.chip.messagesWaiting', { Count: messages })}
        </span>
      )}
      {waiting > 0 && (
        <span className="chip chip--accent" data-testid="chip-more-decisions">
          {t('composer.chip.moreDecisions', { Count: waiting })}
        </span>
      )}
      {note && (
        <span className="chip chip--note" data-testid="chip-note" role="status">
          {t(note.key, note.args)}
          <button
            type="button"
            className="chip__close"
            aria-label={t('composer.chip.dismiss')}
            title={t('composer.chip.dismiss')}
            onClick={onDismissNote}
          >
            <CloseSmallIcon size={12} />
          </button>
        </span>
      )}
    </>
  );
}
