/** Wire types of the Go app API (JSON field names as the Go side emits them). See docs/API.md. */
import type { CheckpointMark, HunkVerdict, RestoreMark, ReviewMark, StagedReview } from './checkpoints';

export type Language = 'en' | 'zh-CN';

export const LANGUAGES: readonly Language[] = ['en', 'zh-CN'];

/** The person's preference chosen in the composer's selector (R-MODE-1). */
export type Interaction = 'smart' | 'chat';
/** The "Advanced…" choice; '' is no override. Only valid with smart. */
export type Override = '' | 'execute' | 'plan' | 'analyze' | 'debug' | 'verified';
export const OVERRIDES: readonly Exclude<Override, ''>[] = ['execute', 'plan', 'analyze', 'debug', 'verified'];

export type Permission = 'ask' | 'auto' | 'full';
export const PERMISSIONS: readonly Permission[] = ['ask', 'auto', 'full'];

/** What a turn actually ran as (resolved per turn). */
export type ExecutionMode = 'chat' | 'propose' | 'analyze' | 'plan' | 'execute' | 'debug' | 'verified';

export interface Session {
  id: string;
  title: string;
  workspace: string;
  /** Absent only from servers older than issue 5; read through `sessionPreference`. */
  interactionMode?: Interaction;
  executionOverride?: Override;
  permissionMode?: Permission;
  /** A stored mode that could not be read; the session runs read-only until it is changed. */
  unrecognizedMode?: string;
  externalAgent?: string;
  /** A session of the offline demo: its own script, its own scratch folder. */
  demo?: boolean;
  running?: boolean;
  /** Decisions waiting for the person. */
  waiting?: number;
  /** Orders the live state (running, waiting) among every report of it: the newest wins. */
  stateSeq?: number;
  /** RFC 3339 */
  createdAt: string;
  /** RFC 3339 */
  updatedAt: string;
}

/** A page of the session list, most recently active first; `next` continues it ('' after the last). */
export interface SessionPage {
  sessions: Session[];
  next: string;
}

/** sessions.changed: the sessions that changed, as they are now, and the ids of those deleted. */
export interface SessionsChanged {
  sessions: Session[];
  removed: string[];
}

export interface CreateSessionRequest {
  title?: string;
  workspace?: string;
  interactionMode?: Interaction;
  executionOverride?: Override;
  /** Omitted unless the new-task draft holds a choice: the backend then applies the default. */
  permissionMode?: Permission;
  /** An external ACP agent's command line, as saved in Settings; omitted: the built-in agent. */
  externalAgent?: string;
}

export interface ConfigureRequest {
  id: string;
  interactionMode?: Interaction;
  /** '' clears the override. */
  executionOverride?: Override;
}

export interface ConfigureResult {
  session: Session;
  /** True when a turn runs: the change waits for the next turn boundary. */
  queued: boolean;
}

export interface Ack {
  turnId?: string;
  steered?: boolean;
  queued?: boolean;
  cleared?: boolean;
}

export interface QueueItem {
  switch?: { interaction_mode: Interaction; execution_override: Override };
  message_id?: string;
}

export type TurnStatus = 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted' | 'unverified';

export type TArgsWire = Record<string, string | number>;

export interface Turn {
  id: string;
  prompt: string;
  executionMode: ExecutionMode;
  reasonKey: string;
  reasonArgs?: TArgsWire | null;
  status: TurnStatus;
  error: string;
  /** Live only (turn.ended): the error in the person's language. */
  failure?: DisplayMessage | null;
  temporary: boolean;
  createdAt: string;
}

/** The gate's verdict; external: an external agent ran the call without asking (its own flow). */
export type Verdict = 'allow' | 'ask' | 'deny' | 'cancelled' | 'external' | '';

/** Text for the person as a locale key and its arguments (see features/transcript/message.ts). */
export interface DisplayMessage {
  key: string;
  args?: Record<string, unknown> | null;
  /** Lines at the start / end of the output the message stands for; none: all of it. */
  head?: number;
  tail?: number;
}

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
  display?: DisplayMessage | null;
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
  display?: DisplayMessage | null;
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
/** An entry of the session's log the server could not read: shown, never silently skipped. */
export interface UnreadableItem {
  type: 'unreadable';
  turnId: '';
  seq: number;
  logType: string;
}
/** The model's history from entry `from` through `through` now reaches it as a summary. */
export interface CompactedMark {
  from: number;
  through: number;
  summary: string;
  tokensBefore: number;
  tokensAfter: number;
  window: number;
  reason?: string;
}
/** The runtime summarised the earlier conversation to fit the model's context window. */
export interface CompactedItem {
  type: 'compacted';
  turnId: string;
  seq?: number;
  compacted: CompactedMark;
}
export type Item =
  | CompactedItem
  | UserItem
  | AssistantItem
  | ToolItem
  | DirectItem
  | ModeItem
  | ClearedItem
  | UnreadableItem
  | CheckpointItem
  | RestoreItem
  | ReviewItem;

export type DecisionKind = 'question' | 'approval' | 'plan_review' | 'elicitation' | 'sampling';

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
export interface AgentStatusEvent {
  sessionId: string;
  /** The command line. */
  agent: string;
  /** What to call it: "opencode". */
  name: string;
  state: 'starting' | 'ready' | 'failed';
  /** Ready with its own earlier session (session/load). */
  loaded?: boolean;
  error?: string;
}
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

export interface Decision {
  id: string;
  sessionId: string;
  turnId: string;
  kind: DecisionKind;
  payload: unknown;
  createdAt: string;
  deadline: string;
}

export type Outcome = 'answered' | 'rejected' | 'timed_out' | 'cancelled' | 'interrupted';

export interface Resolved {
  id: string;
  sessionId: string;
  kind: DecisionKind;
  outcome: Outcome;
  answer?: unknown;
  reason?: string;
  /** e.g. decision.reason.timed_out */
  reasonKey?: string;
}

export interface ResolveRequest {
  id: string;
  choice?: string;
  reason?: string;
  /** What allow_session and allow_always save; absent means exact. */
  scope?: ScopeId;
  selected?: string[];
  text?: string;
  feedback?: string;
  /** An elicitation's answer: accept (with content, the form) or decline. */
  action?: 'accept' | 'decline';
  content?: Record<string, unknown>;
  /** Per-hunk verdicts on a change staged for review before apply; a hunk without one is accepted. */
  hunks?: HunkVerdict[];
}

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

export interface DirectResult {
  sessionId: string;
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
  display?: DisplayMessage | null;
}

export type Theme = 'system' | 'light' | 'dark';
export const THEMES: readonly Theme[] = ['system', 'light', 'dark'];

export interface ProviderSettings {
  kind: '' | 'anthropic' | 'openai' | 'demo' | string;
  model: string;
  baseUrl: string;
  keys?: { anthropic: '' | 'env' | 'keyring'; openai: '' | 'env' | 'keyring' };
}

/** Fields beyond `language` arrived with issue 5; a server may omit them, so they are optional here. */
export interface Settings {
  language: Language;
  defaultPermission?: Permission;
  decisionTimeout?: string;
  theme?: Theme;
  provider?: ProviderSettings;
  providerReady?: boolean;
  /** The provider the command line fixed for every turn (serve --provider …). */
  commandLine?: { kind: string; model?: string } | null;
  /** External ACP agents a new task may run on. */
  externalAgents?: string[] | null;
}

export interface SystemInfo {
  version: string;
  dataDir: string;
  defaultWorkspace: string;
  transport: 'desktop' | 'browser';
}

// Broadcast payloads.

export interface TurnStartedEvent {
  sessionId: string;
  turnId: string;
  executionMode: ExecutionMode;
  reasonKey: string;
  reasonArgs?: TArgsWire | null;
  /** The message that started the turn, when the server sends it. */
  prompt?: string;
}
export interface TurnDeltaEvent {
  sessionId: string;
  turnId: string;
  text: string;
  /** Numbers the deltas of one stream (a turn's text, one call's output) from 1. */
  seq?: number;
}
export interface ToolCallEvent {
  sessionId: string;
  turnId: string;
  callId: string;
  name: string;
  input: unknown;
  summary?: string;
  verdict: Verdict;
  layer?: string;
  code?: string;
  reasonKey?: string;
}
export interface ToolOutputEvent {
  sessionId: string;
  turnId: string;
  callId: string;
  text: string;
  /** Numbers the deltas of one stream (a turn's text, one call's output) from 1. */
  seq?: number;
}
/** tool.progress: how far a running MCP tool says it is (transient: not in the log, gone after a reload). */
export interface ToolProgressEvent {
  sessionId: string;
  turnId: string;
  callId: string;
  progress: number;
  /** Absent or 0 when the server does not know how much there is. */
  total?: number;
  message?: string;
}
export interface ToolResultEvent {
  sessionId: string;
  turnId: string;
  callId: string;
  name: string;
  output: string;
  isError: boolean;
  approved?: string;
  code?: string;
  display?: DisplayMessage | null;
  answered?: boolean;
}
export interface TurnEndedEvent {
  sessionId: string;
  turnId: string;
  status: TurnStatus;
  error: string;
  failure?: DisplayMessage | null;
}
export interface SessionModeEvent {
  sessionId: string;
  interactionMode: Interaction;
  executionOverride: Override;
}
export interface QueueChangedEvent {
  sessionId: string;
  items: QueueItem[] | null;
}
/** What the server could not record after a turn (its end, the boundary); nothing committed was lost. */
export interface SessionFailedEvent {
  sessionId: string;
  kind: string;
  args?: Record<string, unknown> | null;
}
export interface SessionRef {
  sessionId: string;
}
/** session.state: one session's live state. */
export interface SessionStateEvent {
  sessionId: string;
  running: boolean;
  waiting: number;
  stateSeq: number;
}
