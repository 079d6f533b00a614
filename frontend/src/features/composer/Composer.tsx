import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Decision, ResolveRequest } from '../../bridge';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { registerComposer, type ComposerCommand } from '../keys/composerCommands';
import { ariaKeys } from '../keys/keymap';
import { modeCycleOn } from '../keys/modeCycle';
import { decisionScope, drafts as defaultDrafts, type DraftStore } from '../drafts/draftStore';
import type { AnyComposerMode, ModeAction, ModeContext } from './ComposerMode';
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
  drafts = defaultDrafts,
}: {
  queue: QueueState;
  ctx: ModeContext;
  chips: ReactNode;
  controls: ReactNode;
  /** Shift+Tab in the empty message box: Smart → Smart · Plan (or the pinned override) → Chat. */
  onCycleMode: () => void;
  testId?: string;
  drafts?: DraftStore;
}) {
  const occ = occupant(queue);
  const mode = modeFor(occ);
  const decision = occ.kind === 'decision' ? occ.decision : null;
  const key = decision ? `decision-${decision.id}` : occ.kind;

  // Each occupant keeps its own state; the idle box's text lives with the owner (ctx.text).
  // A decision's answer (or a tool's form) starts from its draft, if one was being written.
  const session = ctx.sessionId;
  const draftScope = scopeOf(mode, decision, session);
  const [slot, setSlot] = useState<{ key: string; state: unknown }>(() => ({ key, state: initState(mode, decision, session, drafts) }));
  const current = slot.key === key ? slot.state : initState(mode, decision, session, drafts);
  if (slot.key !== key) setSlot({ key, state: current });

  useEffect(() => {
    if (draftScope !== null && session !== null && mode.draft) drafts.set(session, draftScope, mode.draft.save(current));
  }, [current, draftScope, session, mode, drafts]);

  // Once the answer went through (or the tool ran), the draft has nothing left to keep. A run the
  // gate holds for confirmation has not happened yet.
  const answerCtx = useMemo<ModeContext>(
    () =>
      draftScope === null || session === null
        ? ctx
        : {
            ...ctx,
            resolve: async (req: ResolveRequest) => {
              const won = await ctx.resolve(req);
              drafts.clear(session, draftScope);
              return won;
            },
            runTool: async (name, input, approved) => {
              const result = await ctx.runTool(name, input, approved);
              if (!result?.needsApproval) drafts.clear(session, draftScope);
              return result;
            },
          },
    [ctx, draftScope, session, drafts],
  );

  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const [confirmStop, setConfirmStop] = useState(false);
  const [announce, setAnnounce] = useState('');

  useEffect(() => setError(null), [key]);
  useEffect(() => {
    if (!ctx.running) setConfirmStop(false);
  }, [ctx.running]);

  // Whether the focus was in this composer when its occupant changed, read before the new one is
  // drawn (the old one's field, gone with it, would leave the focus on the page's body).
  const shownKey = useRef(key);
  const focusWasIn = useRef(false);
  if (shownKey.current !== key) {
    shownKey.current = key;
    focusWasIn.current = !!rootRef.current && rootRef.current.contains(document.activeElement);
  }

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
        await mode.perform(actionId, stateRef.current, answerCtx, decision, setState);
      } catch (err) {
        setError(err);
      } finally {
        busyRef.current = false;
        setBusy(false);
      }
    },
    [mode, ctx, answerCtx, decision, setState],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      if (mode.escape === 'leave') {
        e.preventDefault();
        ctx.closeFnForm();
        ctx.closeSetup();
      } else if (decision) {
        // Esc leaves the decision (it keeps waiting, its draft kept); it never stops the turn.
        e.preventDefault();
        document.getElementById('main')?.focus();
      } else if (ctx.running) {
        // Stopping a turn asks first.
        e.preventDefault();
        setConfirmStop(true);
      }
    } else if (
      e.key === 'Tab' &&
      e.shiftKey &&
      mode.id === 'idle' &&
      (e.target as HTMLElement).tagName === 'TEXTAREA' &&
      ctx.text === '' &&
      modeCycleOn()
    ) {
      // Only in an empty box: with text in it, Shift+Tab moves the focus back as it does anywhere.
      e.preventDefault();
      onCycleMode();
    }
  };

  const title = mode.title(decision, ctx.t);
  const Body = mode.Body;
  const actions = mode.actions(current, ctx, decision);

  /** Puts the focus in the box: the message box, a decision (its region, read with its title), a form's first field. */
  const focusBox = useCallback(() => {
    const root = rootRef.current;
    if (!root) return;
    const section = root.querySelector<HTMLElement>('.composer__mode');
    const input = root.querySelector<HTMLElement>('[data-testid="composer-input"]');
    if (input) input.focus();
    else if (decision && section) section.focus();
    else root.querySelector<HTMLElement>('.composer__mode input, .composer__mode textarea, .composer__mode select, .composer__mode button')?.focus();
  }, [decision]);

  // A decision that arrives takes the focus only when the composer had it; otherwise it is announced.
  const firstDraw = useRef(true);
  useLayoutEffect(() => {
    if (firstDraw.current) {
      firstDraw.current = false;
      return;
    }
    if (focusWasIn.current && !rootRef.current?.contains(document.activeElement)) {
      // The focus was in the box that left (the message box, the last answer's button).
      focusBox();
    } else if (decision) {
      setAnnounce(ctx.t('shell.keys.decisionArrived', { Title: title ?? ctx.t(`composer.mode.${mode.id}`) }));
    }
    if (!decision) setAnnounce('');
    // Only a change of occupant moves the focus.
  }, [key]);

  const commandRef = useRef<(cmd: ComposerCommand) => boolean>(() => false);
  commandRef.current = (cmd) => {
    if (cmd === 'focus') {
      focusBox();
      return true;
    }
    if (cmd === 'stop') {
      // A Stop pressed elsewhere (the transcript, the chips) asks here first, as Esc does.
      if (!ctx.running) return false;
      setConfirmStop(true);
      return true;
    }
    if (!decision || busyRef.current) return false;
    if (cmd === 'approve') {
      const primary = actions.find((a) => a.tone === 'primary' && !a.disabled);
      if (!primary) return false;
      void run(primary.id);
      return true;
    }
    if (cmd === 'allowSession') {
      if (!actions.some((a) => a.id === 'allow_session' && !a.disabled)) return false;
      void run('allow_session');
      return true;
    }
    const reason = rootRef.current?.querySelector<HTMLElement>('.decision__reason');
    if (reason) {
      reason.focus();
      return true;
    }
    if (!actions.some((a) => a.id === 'reject')) return false;
    void run('reject');
    return true;
  };
  useEffect(() => registerComposer((cmd) => commandRef.current(cmd)), []);

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
          tabIndex={decision ? -1 : undefined}
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
          {confirmStop && ctx.running && !decision && (
            <StopConfirm
              t={ctx.t}
              onStop={() => {
                setConfirmStop(false);
                focusBox();
                void ctx.cancelTurn().catch(setError);
              }}
              onKeep={() => {
                setConfirmStop(false);
                focusBox();
              }}
            />
          )}
          <ModeActions actions={actions} busy={busy} onRun={(id) => void run(id)} shortcuts={decision ? decisionShortcuts(actions) : undefined} />
        </section>
      </MorphBox>
      <div className="visually-hidden" role="status" data-testid="composer-announce">
        {announce}
      </div>
      <div className="composer__controls" data-testid="composer-controls">
        {controls}
      </div>
    </div>
  );
}

/** Where the occupant's draft is kept: per decision, or per mode for the person's own (the fn-form). */
function scopeOf(mode: AnyComposerMode, decision: Decision | null, session: string | null): string | null {
  if (!mode.draft || session === null) return null;
  return decision ? decisionScope(decision.id) : mode.id;
}

/** The mode's first state for what occupies the box, with the draft of its answer when one was kept. */
function initState(mode: AnyComposerMode, decision: Decision | null, session: string | null, drafts: DraftStore): unknown {
  const init: unknown = mode.init(decision);
  const scope = scopeOf(mode, decision, session);
  if (!mode.draft || scope === null || session === null) return init;
  const saved = drafts.get(session, scope);
  if (saved === undefined) return init;
  try {
    return mode.draft.restore(init, saved, decision);
  } catch {
    return init;
  }
}

/** Esc while a turn runs: stop it, or keep it running (the focus starts on Stop; Esc keeps running). */
function StopConfirm({ t, onStop, onKeep }: { t: ModeContext['t']; onStop: () => void; onKeep: () => void }) {
  const stopRef = useRef<HTMLButtonElement>(null);
  useEffect(() => stopRef.current?.focus(), []);
  return (
    <div
      className="composer__stop-confirm"
      role="group"
      aria-label={t('shell.keys.stopQuestion')}
      data-testid="composer-stop-confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onKeep();
        }
      }}
    >
      <span>{t('shell.keys.stopQuestion')}</span>
      <button type="button" className="btn btn--small" data-testid="composer-stop-keep" onClick={onKeep}>
        {t('shell.keys.keepRunning')}
      </button>
      <button ref={stopRef} type="button" className="btn btn--small btn--danger" data-testid="composer-stop-yes" onClick={onStop}>
        {t('shell.keys.stop')}
      </button>
    </div>
  );
}

/** The shortcuts of a decision's actions: its primary one, Allow for this session, Reject. */
function decisionShortcuts(actions: ModeAction[]): Record<string, string | undefined> {
  const primary = actions.find((a) => a.tone === 'primary');
  return {
    ...(primary ? { [primary.id]: ariaKeys('approve') } : {}),
    allow_session: ariaKeys('allowSession'),
    ...(actions.some((a) => a.id === 'reject') ? { reject: ariaKeys('reject') } : {}),
  };
}
