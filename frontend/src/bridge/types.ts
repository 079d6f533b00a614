/**
 * The app API's types as the UI uses them. Wire types come from generated.ts (generated from the
 * Go side by build/gents: the reference for every method, event and field); what is written here
 * are the UI's own refinements (unions the Go side spells as plain strings, the timeline's items by
 * type, decision payloads by kind), constants and live-only fields.
 */
import type { CheckpointMark, RestoreMark, ReviewMark } from './checkpoints';
import type * as G from './generated';
import type {
  // The person's preference chosen in the composer's selector (R-MODE-1).
  InteractionMode as Interaction,
  // The "Advanced…" choice; '' is no override. Only valid with smart.
  Override,
  PermissionMode as Permission,
  // What a turn actually ran as (resolved per turn).
  ExecutionMode,
  Session,
  SessionPage,
  CreateSessionRequest,
  ConfigureSessionRequest as ConfigureRequest,
  ConfigureResult,
  Ack,
  QueueItem,
  // Text for the person as a locale key and its arguments (see features/transcript/message.ts).
  Message as DisplayMessage,
  // The model's history from entry `from` through `through` now reaches it as a summary.
  CompactedItem as CompactedMark,
  DecisionKind,
  DecisionForms,
  ElicitationAnswer,
  SamplingAnswer,
  ApprovalPayload,
  ApprovalAnswer,
  // agent.status: an external agent starting when its session opens, ready, or failed to start.
  AgentStatus as AgentStatusEvent,
  QuestionPayload,
  QuestionAnswer,
  PlanPayload as PlanReviewPayload,
  PlanAnswer,
  Decision,
  Outcome,
  Resolved,
  ResolveRequest,
  DirectResult,
  Theme,
  ProviderView as ProviderSettings,
  SettingsView as Settings,
  Info as SystemInfo,
  // Broadcast payloads.
  TurnStarted as TurnStartedEvent,
  Delta as TurnDeltaEvent,
  ToolCallView as ToolCallEvent,
  Delta as ToolOutputEvent,
  ProgressView as ToolProgressEvent,
  ToolDoneView as ToolResultEvent,
  TurnEnded as TurnEndedEvent,
  ModeView as SessionModeEvent,
  QueueView as QueueChangedEvent,
  SessionFailed as SessionFailedEvent,
  SessionState as SessionStateEvent,
} from './generated';

/** The wire types the UI uses as they are (generated from Go), under the names it knows them by. */
export type {
  Interaction, Override, Permission, ExecutionMode, Session, SessionPage, CreateSessionRequest,
  ConfigureRequest, ConfigureResult, Ack, QueueItem, DisplayMessage, CompactedMark, DecisionKind,
  DecisionForms, ElicitationAnswer, SamplingAnswer, ApprovalPayload, ApprovalAnswer, AgentStatusEvent,
  QuestionPayload, QuestionAnswer, PlanReviewPayload, PlanAnswer, Decision, Outcome, Resolved, ResolveRequest,
  DirectResult, Theme, ProviderSettings, Settings, SystemInfo, TurnStartedEvent, TurnDeltaEvent,
  ToolCallEvent, ToolOutputEvent, ToolProgressEvent, ToolResultEvent, TurnEndedEvent, SessionModeEvent,
  QueueChangedEvent, SessionFailedEvent, SessionStateEvent,
};

/**
 * Every value of the union T, in the order given: the compiler refuses a list that misses one, so a
 * value the Go side adds to a generated union fails the build until the UI lists it too.
 */
const everyOf =
  <T extends string>() =>
  <const L extends readonly T[]>(list: [T] extends [L[number]] ? L : never): readonly T[] =>
    list;

export type Language = 'en' | 'zh-CN';

export const LANGUAGES: readonly Language[] = ['en', 'zh-CN'];

export const OVERRIDES = everyOf<Exclude<Override, ''>>()(['execute', 'plan', 'analyze', 'debug', 'verified']);

export const PERMISSIONS = everyOf<Permission>()(['ask', 'auto', 'full']);

/**
 * sessions.changed as api.sessions.onChanged hands it: the sessions that changed, as they are now,
 * and the ids of those deleted (the wire's G.SessionsChanged with its lists never null).
 */
export interface SessionsChanged {
  sessions: Session[];
  removed: string[];
}

export type TurnStatus = 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted' | 'unverified';

/** A locale message's arguments as Go sends them. */
export type TArgsWire = Record<string, unknown>;

/** A turn's header (Go: app.TurnView), with what only a live turn.ended adds. */
export interface Turn extends G.TurnView {
  /** Live only (turn.ended): the error in the person's language. */
  failure?: DisplayMessage;
}

/**
 * The gate's verdict as Go sends it (a plain string): allow, ask, deny, cancelled, external (an
 * external agent ran the call without asking, its own flow) or ''.
 */
export type Verdict = G.ToolCallView['verdict'];

export interface UserItem {
  type: 'user';
  turnId: string;
  text: string;
  steer: boolean;
}
export interface AssistantItem {
  type: 'assistant';
  turnId: string;
  text: string;
}
export interface ToolItem {
  type: 'tool';
  turnId: string;
  callId: string;
  name: string;
  input: unknown;
  output: string;
  isError: boolean;
  verdict: Verdict;
  /** Gate layer: profile, rule, protected, grant, mode. */
  layer: string;
  /** Gate or tool error code (error.<code>). */
  code: string;
  /** How the person answered: an approval's choice (allow_once, …, reject), a question's outcome
   * (answered, timed_out, …), a plan review's (approve, keep_planning, timed_out, …). */
  approved: string;
  /** The result in the person's language; the output is what the model read. */
  display?: DisplayMessage;
  /** The output is the person's own answer (a plan's feedback): no error to show them. */
  answered?: boolean;
  /** Live only (tool.call): why the gate decided (gate.reason.*). */
  reasonKey?: string;
  /** Live only (tool.call): the full command or parameters. */
  summary?: string;
  /** Live only: the tool's result has arrived. */
  done?: boolean;
  /** Live only (tool.progress): how far a running MCP tool says it is. */
  progress?: ToolProgress | null;
}
/**
 * tool.progress as the item keeps it (Go: ProgressView): total 0 when the server does not know how
 * much there is, message '' before the server sent any.
 */
export type ToolProgress = Required<Pick<G.ProgressView, 'progress' | 'total' | 'message'>>;
/** A tool the person ran from the composer (Go: app.DirectResult, without its session). */
export interface DirectItem extends Omit<G.DirectResult, 'sessionId'> {
  type: 'direct';
  turnId: '';
}
export interface ModeItem {
  type: 'mode';
  turnId: string;
  interactionMode: Interaction;
  executionOverride: Override;
  /** Why, when the person did not change it themselves: 'plan_approved' (an approved plan's exit). */
  reason?: string;
}
/** A change of the session's permission mode (ask, auto, full), where it happened. */
export interface PermissionItem {
  type: 'permission';
  turnId: string;
  permissionMode: string;
}
export interface ClearedItem {
  type: 'cleared';
  turnId: '';
}
/** A snapshot of the workspace (before a turn, after a tool call, at a turn's end). */
export interface CheckpointItem {
  type: 'checkpoint';
  turnId: string;
  callId?: string;
  checkpoint: CheckpointMark;
}
/** The person restored files, the conversation, or both. */
export interface RestoreItem {
  type: 'restore';
  turnId: '';
  restore: RestoreMark;
}
/** The person accepted or reverted a turn's change to a file. */
export interface ReviewItem {
  type: 'review';
  turnId: '';
  review: ReviewMark;
}
/**
 * AgentDesk's own word to the model within a turn (Verified mode reminding it to verify): shown
 * as a note of the app's, never as the person's message. text is what the model read.
 */
export interface NudgeItem {
  type: 'nudge';
  turnId: string;
  text: string;
}
/** An entry of the session's log the server could not read: shown, never silently skipped. */
export interface UnreadableItem {
  type: 'unreadable';
  turnId: '';
  seq: number;
  logType: string;
}
/** The runtime summarised the earlier conversation to fit the model's context window. */
export interface CompactedItem {
  type: 'compacted';
  turnId: string;
  seq?: number;
  compacted: CompactedMark;
}
/** What the person's worktree-copy setting brought into a new task's worktree. */
export interface WorktreeCopiedItem {
  type: 'worktreeCopied';
  turnId: '';
  copied: G.WorktreeCopiedItem;
}
/** A set-up command run in a new task's worktree, and how it ended. */
export interface WorktreeSetupItem {
  type: 'worktreeSetup';
  turnId: '';
  setup: G.WorktreeSetupItem;
}
/**
 * The timeline's items by type: each is a G.Item (Go: app.Item, one struct whose type says which
 * fields are set) with the fields its type sets; normalizeTranscript reads the wire's items into them.
 */
export type Item = { /** The log entry a stored item starts at; absent on one only seen live. */ seq?: number } & (
  | CompactedItem
  | UserItem
  | NudgeItem
  | AssistantItem
  | ToolItem
  | DirectItem
  | ModeItem
  | PermissionItem
  | ClearedItem
  | UnreadableItem
  | CheckpointItem
  | RestoreItem
  | ReviewItem
  | WorktreeCopiedItem
  | WorktreeSetupItem
);

// The decision payloads and answers by kind come from Go (decision.Forms); where Go spells a field
// as any JSON or a plain string, the UI's refinement below narrows it.

/** A form an MCP server asks the person to fill in while one of its tools runs. */
export type ElicitationPayload = Omit<G.ElicitationPayload, 'schema'> & {
  /** A flat object schema: string, number, integer, boolean and enum properties. */
  schema: ToolDef['inputSchema'] | null;
};
/** One message of a sampling request, as the server wrote it (plain text, never HTML). */
export type SamplingMessage = G.SamplingMessage & { role: 'user' | 'assistant' };
/**
 * An MCP server asks to use the person's model (sampling) while one of its tools runs; as the card
 * reads it, with no null list.
 */
export type SamplingPayload = Omit<G.SamplingPayload, 'messages'> & { messages: SamplingMessage[] };
export type ScopeId = 'exact' | 'prefix';
/** A scope the approval card offers, its id one the UI knows (Go: decision.ScopeExact, ScopePrefix). */
export type ScopeOption = G.ScopeOption & { id: ScopeId };

/**
 * A session's transcript as the page holds it (Go: app.Transcript): its lists never null, its items
 * and turns by type, and what only the client keeps.
 */
export interface Transcript
  extends Pick<G.Transcript, 'sessionId' | 'running'>,
    Partial<Pick<G.Transcript, 'first' | 'last' | 'more'>> {
  queue: QueueItem[];
  pending: Decision[];
  turns: Turn[];
  items: Item[];
  /** Client side only: the last delta seq applied per stream, so a stale or repeated one is dropped. */
  deltaSeq?: Record<string, number>;
  /**
   * Client side only: the display key a stored item (by its log entry) inherits from the live item
   * it replaced when the transcript was read again, so the view keeps its row (and its measured
   * height) instead of drawing it afresh.
   */
  keys?: Record<number, string>;
  /**
   * Client side only: the log holds entries after `last` that the page dropped (it keeps a window
   * of pages around the view, see features/transcript/transcriptWindow.ts); the newest end is
   * then not shown.
   */
  newer?: boolean;
}

export interface JsonSchemaProperty {
  type?: string | string[];
  title?: string;
  description?: string;
  items?: { type?: string };
  enum?: unknown[];
  /** Labels of enum's values, in the same order (an older form MCP elicitations still use). */
  enumNames?: unknown[];
  oneOf?: { const?: unknown; title?: string }[];
  default?: unknown;
}

export interface ToolDef {
  name: string;
  description: string;
  inputSchema: { type?: string; properties?: Record<string, JsonSchemaProperty>; required?: string[] };
}

export const THEMES = everyOf<Theme>()(['system', 'light', 'dark']);
