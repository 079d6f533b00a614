import type { ComponentType, ReactNode } from 'react';
import type { Decision, DecisionKind, DirectResult, ResolveRequest, ToolDef } from '../../bridge';
import type { TFunction } from '../../i18n/translate';

/** A button of the box's action row. The one with tone 'primary' sits where Send sits in idle. */
export interface ModeAction {
  id: string;
  label: string;
  tone: 'primary' | 'secondary' | 'danger' | 'ghost';
  testId: string;
  disabled?: boolean;
  icon?: ReactNode;
  /**
   * What the button does, in more words than its label: its tooltip and accessible description. The
   * accessible name stays the visible label, so speech input and screen readers hear what is shown.
   */
  hint?: string;
}

/**
 * What a mode may do. The container's owner provides it: an open session, or the new-task draft
 * (which has no session yet, so it offers no tools and no decisions).
 */
export interface ModeContext {
  t: TFunction;
  sessionId: string | null;
  /** A turn runs in this session. */
  running: boolean;
  /** The idle box's text; it outlives every other mode, so a decision never eats a draft. */
  text: string;
  setText: (text: string) => void;
  send: (text: string) => Promise<void>;
  cancelTurn: () => Promise<void>;
  /** Null where no tool can run (the new-task draft). */
  openFnForm: (() => void) | null;
  closeFnForm: () => void;
  /** Leaves the set-up the box shows when Send found no model. */
  closeSetup: () => void;
  resolve: (req: ResolveRequest) => Promise<boolean>;
  listTools: () => Promise<ToolDef[]>;
  /** Resolves needsApproval (nothing ran, the form stays) until it is sent again approved. */
  runTool: (name: string, input: Record<string, unknown>, approved?: boolean) => Promise<DirectResult>;
}

export interface ModeBodyProps<S> {
  state: S;
  setState: (next: S | ((prev: S) => S)) => void;
  decision: Decision | null;
  ctx: ModeContext;
  /** Runs one of the mode's actions, e.g. Enter in a field. */
  run: (actionId: string) => void;
  busy: boolean;
}

/**
 * One shape of the composer (R-DEC-1, R-DEC-2). The container knows only this interface; the
 * registry maps ids and decision kinds to modes, so a new kind of decision is a new folder.
 */
export interface ComposerMode<S> {
  id: string;
  /** The decision kind this mode answers; absent for the person's own modes (idle, fn-form). */
  decisionKind?: DecisionKind;
  /** The box's heading; null for none (idle). */
  title: (decision: Decision | null, t: TFunction) => string | null;
  init: (decision: Decision | null) => S;
  Body: ComponentType<ModeBodyProps<S>>;
  /** The action row, left to right. */
  actions: (state: S, ctx: ModeContext, decision: Decision | null) => ModeAction[];
  /** Carries out an action; rejects with the failure to show. */
  perform: (
    actionId: string,
    state: S,
    ctx: ModeContext,
    decision: Decision | null,
    setState: (next: S | ((prev: S) => S)) => void,
  ) => Promise<void>;
  /** Escape: 'leave' closes the mode (fn-form); 'stop' stops the running turn. */
  escape: 'leave' | 'stop';
  /**
   * What of a decision's answer is kept while it is being written, so a reload or a look at
   * another session does not lose it. Absent: nothing is kept.
   */
  draft?: DraftCodec<S>;
}

export interface DraftCodec<S> {
  /** What to keep, as plain JSON; null or '' when nothing was typed. */
  save: (state: S) => unknown;
  /** The state again from what was kept (written by an older page, perhaps): anything unexpected is left out. */
  restore: (init: S, saved: unknown, decision: Decision | null) => S;
}

/** A kept field of a saved draft, when it is text. */
export function savedText(saved: unknown, field: string): string {
  const v = saved && typeof saved === 'object' ? (saved as Record<string, unknown>)[field] : undefined;
  return typeof v === 'string' ? v : '';
}

// The registry holds modes of different state types; each mode only ever sees its own state.
export type AnyComposerMode = ComposerMode<any>;
