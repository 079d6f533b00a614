import { transport } from './select';
import { typedTransport } from './typed';
import type {
  Ack,
  AgentStatusEvent,
  ConfigureRequest,
  ConfigureResult,
  CreateSessionRequest,
  Decision,
  DirectResult,
  Interaction,
  Language,
  Override,
  Permission,
  QueueChangedEvent,
  SessionFailedEvent,
  Resolved,
  ResolveRequest,
  Session,
  SessionModeEvent,
  SessionPage,
  SessionsChanged,
  SessionRef,
  SessionStateEvent,
  Settings,
  SystemInfo,
  ToolCallEvent,
  ToolDef,
  ToolOutputEvent,
  ToolProgressEvent,
  ToolResultEvent,
  Transcript,
  TurnDeltaEvent,
  TurnEndedEvent,
  TurnStartedEvent,
} from './types';
import type { Checkpoint, CheckpointMark, RestorePreview, RestoreScope, ReviewRequest, TurnChanges } from './checkpoints';
import type { Session as SessionDTO } from './types';

export interface SendRequest {
  sessionId: string;
  text: string;
  interactionMode?: Interaction;
  executionOverride?: Override;
}

/**
 * The typed app API. Components and stores use this; they never name a transport or a method
 * string. `getTransport` is injectable so tests can drive it with a fake.
 */
export function createApi(getTransport = transport) {
  const { call, on, onReconnect, onConnection } = typedTransport(getTransport);

  return {
    sessions: {
      /** A page of the list: the first, or the one after the cursor `after`. */
      list: (after = '') =>
        call<SessionPage | null>('Sessions.List', after ? { after } : {}).then((p) => ({ sessions: p?.sessions ?? [], next: p?.next ?? '' })),
      create: (req: CreateSessionRequest = {}) => call<Session>('Sessions.Create', req),
      /** One session, read on its own: a link to a session beyond the loaded pages. */
      get: (id: string) => call<Session>('Sessions.Get', { id }),
      rename: (id: string, title: string) => call<Session>('Sessions.Rename', { id, title }),
      remove: (id: string) => call<null>('Sessions.Delete', { id }).then(() => undefined),
      /** A copy of the session; with `before`, of its history before that log entry only. */
      fork: (id: string, before = 0) => call<Session>('Sessions.Fork', before ? { id, before } : { id }),
      configure: (req: ConfigureRequest) => call<ConfigureResult>('Sessions.Configure', req),
      setPermission: (id: string, permissionMode: Permission) =>
        call<Session>('Sessions.SetPermission', { id, permissionMode }),
      /** The newest page of the transcript, or the page before log entry `before`. */
      transcript: (id: string, before = 0) => call<Transcript>('Sessions.Transcript', before ? { id, before } : { id }),
      continue: (id: string) => call<Ack>('Sessions.Continue', { id }),
      onChanged: (cb: (changed: SessionsChanged) => void) =>
        on<SessionsChanged | null>('sessions.changed')((c) => cb({ sessions: c?.sessions ?? [], removed: c?.removed ?? [] })),
      onMode: on<SessionModeEvent>('session.mode'),
      onAgentStatus: on<AgentStatusEvent>('agent.status'),
      onState: on<SessionStateEvent>('session.state'),
    },
    composer: {
      send: (req: SendRequest) => call<Ack>('Composer.Send', req),
      cancel: (sessionId: string) =>
        call<{ cancelled: boolean } | null>('Composer.Cancel', { id: sessionId }).then((r) => r?.cancelled ?? false),
      unqueue: (sessionId: string, index: number) =>
        call<null>('Composer.Unqueue', { sessionId, index }).then(() => undefined),
      tools: (sessionId: string) => call<ToolDef[] | null>('Composer.Tools', { id: sessionId }).then((t) => t ?? []),
      /** approved: the person confirmed inline a call the gate asks about (never a deny). */
      runTool: (sessionId: string, name: string, input: Record<string, unknown>, approved = false) =>
        call<DirectResult>('Composer.RunTool', { sessionId, name, input, ...(approved ? { approved } : {}) }),
    },
    decisions: {
      pending: (sessionId: string) =>
        call<Decision[] | null>('Decisions.Pending', { id: sessionId }).then((d) => d ?? []),
      resolve: (req: ResolveRequest) =>
        call<{ won: boolean } | null>('Decisions.Resolve', req).then((r) => r?.won ?? false),
      onAsked: on<Decision>('decision.asked'),
      onResolved: on<Resolved>('decision.resolved'),
    },
    turns: {
      onStarted: on<TurnStartedEvent>('turn.started'),
      onDelta: on<TurnDeltaEvent>('turn.delta'),
      onEnded: on<TurnEndedEvent>('turn.ended'),
      onToolCall: on<ToolCallEvent>('tool.call'),
      onToolOutput: on<ToolOutputEvent>('tool.output'),
      onToolProgress: on<ToolProgressEvent>('tool.progress'),
      // Broadcast names, never the log's entry types (tool.result, tool.direct, context.cleared).
      onToolResult: on<ToolResultEvent>('tool.done'),
      onDirect: on<DirectResult>('tool.direct.done'),
      onQueue: on<QueueChangedEvent>('queue.changed'),
      onSessionFailed: on<SessionFailedEvent>('session.failed'),
      onCleared: on<SessionRef>('session.cleared'),
      onCompacted: on<SessionRef>('session.compacted'),
    },
    checkpoints: {
      list: (sessionId: string) => call<Checkpoint[] | null>('Checkpoints.List', { sessionId }).then((c) => c ?? []),
      preview: (sessionId: string, checkpointId: number, scope: RestoreScope) =>
        call<RestorePreview>('Checkpoints.Preview', { sessionId, checkpointId, scope }),
      /** deletes: the files the preview listed for deletion; any other would refuse the restore. */
      restore: (sessionId: string, checkpointId: number, scope: RestoreScope, deletes: string[]) =>
        call<{ restore: unknown; fork?: SessionDTO | null }>('Checkpoints.Restore', { sessionId, checkpointId, scope, deletes }),
      changes: (sessionId: string, turnId: string) => call<TurnChanges>('Checkpoints.Changes', { sessionId, turnId }),
      review: (req: ReviewRequest) => call<TurnChanges>('Checkpoints.Review', req),
      onCreated: on<CheckpointMark>('checkpoint.created'),
      onRestored: on<{ sessionId: string; forkId?: string }>('checkpoint.restore.done'),
      onReviewed: on<{ sessionId: string; turnId: string; path: string }>('review.done'),
    },
    settings: {
      get: () => call<Settings>('Settings.Get'),
      setLanguage: (language: Language) => call<Settings>('Settings.SetLanguage', { language }),
      onChanged: on<Settings>('settings.changed'),
    },
    system: {
      info: () => call<SystemInfo>('System.Info'),
    },
    onReconnect,
    onConnection,
  };
}

export type Api = ReturnType<typeof createApi>;
