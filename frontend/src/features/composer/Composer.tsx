import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { ErrorNotice } from '../../ui/ErrorNotice';
import type { ModeContext } from './ComposerMode';
import { occupant, type QueueState } from './decisionQueue';
import { ModeActions } from './ModeActions';
import { MorphBox } from './MorphBox';
import { modeFor } from './modes/registry';
import './composer.css';

/**
 * The composer container (R-DEC-1): three bands that never move — chips, the morphing box, and
 * the controls row. It knows modes only through the ComposerMode interface; what occupies the
 * box comes from the decision queue (the FIFO's head, else a fn-form the person opened, else idle).
 */
export function Composer({
  queue,
  ctx,
  chips,
  controls,
  onCycleMode,
  testId = 'composer',
}: {
  queue: QueueState;
  ctx: ModeContext;
  chips: ReactNode;
  controls: ReactNode;
  /** Shift+Tab in the empty message box: Smart → Smart · Plan (or the pinned override) → Chat. */
  onCycleMode: () => void;
  testId?: string;
}) {
  const occ = occupant(queue);
  const mode = modeFor(occ);
  const decision = occ.kind === 'decision' ? occ.decision : null;
  const key = decision ? `decision-${decision.id}` : occ.kind;

  // Each occupant keeps its own state; the idle box's text lives with the owner (ctx.text).
  const [slot, setSlot] = useState<{ key: string; state: unknown }>(() => ({ key, state: mode.init(decision) }));
  const current = slot.key === key ? slot.state : mode.init(decision);
  if (slot.key !== key) setSlot({ key, state: current });

  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const rootRef = useRef<HTMLDivElement>(null);

  useEffect(() => setError(null), [key]);

  const setState = useCallback(
    (next: unknown) =>
      setSlot((s) => (s.key !== key ? s : { key, state: typeof next === 'function' ? (next as (p: unknown) => unknown)(s.state) : next })),
    [key],
  );

  const stateRef = useRef(current);
  stateRef.current = current;
  const busyRef = useRef(false);

  const run = useCallback(
    async (actionId: string) => {
      if (busyRef.current) return;
      const action = mode.actions(stateRef.current, ctx, decision).find((a) => a.id === actionId);
      if (action?.disabled) return;
      busyRef.current = true;
      setBusy(true);
      setError(null);
      try {
        await mode.perform(actionId, stateRef.current, ctx, decision, setState);
      } catch (err) {
        setError(err);
      } finally {
        busyRef.current = false;
        setBusy(false);
      }
    },
    [mode, ctx, decision, setState],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      if (mode.escape === 'leave') {
        e.preventDefault();
        ctx.closeFnForm();
        ctx.closeSetup();
      } else if (ctx.running) {
        e.preventDefault();
        void ctx.cancelTurn().catch(setError);
      }
    } else if (e.key === 'Tab' && e.shiftKey && mode.id === 'idle' && (e.target as HTMLElement).tagName === 'TEXTAREA' && ctx.text === '') {
      // Only in an empty box: with text in it, Shift+Tab moves the focus back as it does anywhere.
      e.preventDefault();
      onCycleMode();
    }
  };

  const title = mode.title(decision, ctx.t);
  const Body = mode.Body;
  const actions = mode.actions(current, ctx, decision);

  return (
    <div ref={rootRef} className="composer" data-testid={testId} data-mode={mode.id} onKeyDown={onKeyDown}>
      <div className="composer__chips" data-testid="composer-chips">
        {chips}
      </div>
      <MorphBox modeKey={key} className={`composer__box composer__box--${mode.id}${decision ? ' is-decision' : ''}`}>
        <section
          className="composer__mode"
          data-testid={`composer-mode-${mode.id}`}
          data-decision-id={decision?.id}
          aria-label={title ?? ctx.t('composer.input.label')}
          aria-live={decision ? 'polite' : undefined}
        >
          {title && (
            <header className="composer__mode-head">
              <span className="composer__mode-kind">{ctx.t(`composer.mode.${mode.id}`)}</span>
              <h2 className="composer__mode-title" data-testid="composer-mode-title">
                {title}
              </h2>
            </header>
          )}
          <Body state={current} setState={setState} decision={decision} ctx={ctx} run={(id) => void run(id)} busy={busy} />
          {error !== null && (
            <div className="composer__error">
              <ErrorNotice error={error} onDismiss={() => setError(null)} testId="composer-error" />
            </div>
          )}
          <ModeActions actions={actions} busy={busy} onRun={(id) => void run(id)} />
        </section>
      </MorphBox>
      <div className="composer__controls" data-testid="composer-controls">
        {controls}
      </div>
    </div>
  );
}
