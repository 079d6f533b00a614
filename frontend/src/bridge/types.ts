/**
 * The app API's types as the UI uses them. Wire types come from generated.ts (generated from the
 * Go side by build/gents: the reference for every method, event and field); what is written here
 * are the UI's own refinements (unions the Go side spells as plain strings, the timeline's items by
 * type, decision payloads by kind), constants and live-only fields.
 */
import type * as G from './generated';
import type { CheckpointMark, RestoreMark, ReviewMark, StagedReview } from './checkpoints';

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

/** The person's preference chosen in the composer's selector (R-MODE-1). */
export type Interaction = G.InteractionMode;
/** The "Advanced…" choice; '' is no override. Only valid with smart. */
export type Override = G.Override;
export const OVERRIDES = everyOf<Exclude<Override, ''>>()(['execute', 'plan', 'analyze', 'debug', 'verified']);

export type Permission = G.PermissionMode;
export const PERMISSIONS = everyOf<Permission>()(['ask', 'auto', 'full']);

/** What a turn actually ran as (resolved per turn). */
export type ExecutionMode = G.ExecutionMode;

export type Session = G.Session;

export type SessionPage = G.SessionPage;

/**
 * sessions.changed as api.sessions.onChanged hands it: the sessions that changed, as they are now,
 * and the ids of those deleted (the wire's G.SessionsChanged with its lists never null).
 */
export interface SessionsChanged {
  sessions: Session[];
  removed: string[];
}

export type CreateSessionRequest = G.CreateSessionRequest;

export type ConfigureRequest = G.ConfigureSessionRequest;

export type ConfigureResult = G.ConfigureResult;

export type Ack = G.Ack;

export type QueueItem = G.QueueItem;

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

/** Text for the person as a locale key and its arguments (see features/transcript/message.ts). */
export type DisplayMessage = G.Message;

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
export interface ToolProgress {
  progress: number;
  /** 0 when the server does not know how much there is. */
  total: number;
  /** The latest message the server sent with its progress, '' before any. */
  message: string;
}
export interface DirectItem {
  type: 'direct';
  turnId: '';
  callId: string;
  name: string;
  input: unknown;
  output: string;
  isError: boolean;
  code?: string;
  /** The gate asks under the session's permission: nothing ran until the person confirms. */
  needsApproval?: boolean;
  reasonKey?: string;
  reasonArgs?: TArgsWire | null;
  summary?: string;
  display?: DisplayMessage;
}
export interface ModeItem {
  type: 'mode';
  turnId: string;
  interactionMode: Interaction;
  executionOverride: Override;
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
/** The model's history from entry `from` through `through` now reaches it as a summary. */
export type CompactedMark = G.CompactedItem;
/** The runtime summarised the earlier conversation to fit the model's context window. */
export interface CompactedItem {
  type: 'compacted';
  turnId: string;
  seq?: number;
  compacted: CompactedMark;
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
  | ClearedItem
  | UnreadableItem
  | CheckpointItem
  | RestoreItem
  | ReviewItem
);

export type DecisionKind = G.DecisionKind;

/** A form an MCP server asks the person to fill in while one of its tools runs. */
export interface ElicitationPayload {
  server: string;
  tool: string;
  message: string;
  /** A flat object schema: string, number, integer, boolean and enum properties. */
  schema: ToolDef['inputSchema'] | null;
}

/** One message of a sampling request, as the server wrote it (plain text, never HTML). */
export interface SamplingMessage {
  role: 'user' | 'assistant';
  text: string;
}

/** An MCP server asks to use the person's model (sampling) while one of its tools runs. */
export interface SamplingPayload {
  server: string;
  /** The tool whose call asks; '' when the server asks outside a call. */
  tool: string;
  /** The session's model, which would answer. */
  model: string;
  systemPrompt: string;
  messages: SamplingMessage[];
  maxTokens: number;
}

export interface ApprovalPayload {
  tool: string;
  kind: string;
  /** The full command or parameters. */
  summary: string;
  path?: string;
  command?: string;
  code?: string;
  reasonKey?: string;
  reasonArgs?: TArgsWire | null;
  /**
   * What "Allow for this session" and "Always allow" would save, shown before the person
   * confirms: always the exact call, and a program + subcommand prefix where one is safe.
   */
  scopes?: ScopeOption[] | null;
  /** Set when the command asks to leave the sandbox: only "Allow once" can answer it. */
  escalation?: string;
  /** The external ACP agent asking ("opencode"); absent for AgentDesk's own tools. */
  agent?: string;
  /** The change an external agent's call makes, as a unified diff. */
  diff?: string;
  /** A write's or an edit's change to its file, for the diff (features/diff). */
  change?: { path: string; before: string; after: string; created?: boolean; omitted?: string } | null;
  /** Set when the change is staged for review before apply: the card takes a verdict per hunk. */
  review?: StagedReview | null;
}
export type ScopeId = 'exact' | 'prefix';
export interface ScopeOption {
  id: ScopeId;
  command?: string;
  path?: string;
  /** The MCP tool saved, as rules spell it: mcp:server/tool. */
  mcp?: string;
}

/** agent.status: an external agent starting when its session opens, ready, or failed to start. */
export type AgentStatusEvent = G.AgentStatus;
export interface QuestionPayload {
  question: string;
  options?: string[] | null;
  multiple?: boolean;
}
export interface PlanReviewPayload {
  /** Markdown */
  plan: string;
  /** The plan's first heading. */
  title?: string;
}

export type Decision = G.Decision;

export type Outcome = G.Outcome;

export type Resolved = G.Resolved;

export type ResolveRequest = G.ResolveRequest;

export interface Transcript {
  sessionId: string;
  /** The running turn's id, or ''. */
  running: string;
  queue: QueueItem[];
  pending: Decision[];
  turns: Turn[];
  items: Item[];
  /** The log entries of the page: its first and last (0 when empty). */
  first?: number;
  last?: number;
  /** The log holds entries before `first`: the next older page is asked with before = first. */
  more?: boolean;
  /** Client side only: the last delta seq applied per stream, so a stale or repeated one is dropped. */
  deltaSeq?: Record<string, number>;
  /**
   * Client side only: the display key a stored item (by its log entry) inherits from the live item
   * it replaced when the transcript was read again, so the view keeps its row (and its measured
   * height) instead of drawing it afresh.
   */
  keys?: Record<number, string>;
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

export type DirectResult = G.DirectResult;

export type Theme = G.Theme;
export const THEMES = everyOf<Theme>()(['system', 'light', 'dark']);

export type ProviderSettings = G.ProviderView;

export type Settings = G.SettingsView;

export type SystemInfo = G.Info;

// Broadcast payloads.

export type TurnStartedEvent = G.TurnStarted;
export type TurnDeltaEvent = G.Delta;
export type ToolCallEvent = G.ToolCallView;
export type ToolOutputEvent = G.Delta;
export type ToolProgressEvent = G.ProgressView;
export type ToolResultEvent = G.ToolDoneView;
export type TurnEndedEvent = G.TurnEnded;
export type SessionModeEvent = G.ModeView;
export type QueueChangedEvent = G.QueueView;
export type SessionFailedEvent = G.SessionFailed;
export type SessionStateEvent = G.SessionState;
