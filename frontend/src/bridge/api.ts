import { transport } from './select';
import { typedTransport } from './typed';
import { fieldsOf } from './wire';
import type * as G from './generated';
import type { ConfigureRequest, CreateSessionRequest, Language, Permission, ResolveRequest, SessionsChanged, ToolDef } from './types';
import type { RestoreScope, ReviewRequest } from './checkpoints';

export type SendRequest = G.SendRequest;

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
        call('Sessions.List', after ? { after } : {}).then((p) => ({ sessions: p?.sessions ?? [], next: p?.next ?? '' })),
      create: (req: CreateSessionRequest = {}) => call('Sessions.Create', req),
      /** One session, read on its own: a link to a session beyond the loaded pages. */
      get: (id: string) => call('Sessions.Get', { id }),
      rename: (id: string, title: string) => call('Sessions.Rename', { id, title }),
      remove: (id: string) => call('Sessions.Delete', { id }).then(() => undefined),
      /** A copy of the session; with `before`, of its history before that log entry only. */
      fork: (id: string, before = 0) => call('Sessions.Fork', before ? { id, before } : { id }),
      configure: (req: ConfigureRequest) => call('Sessions.Configure', req),
      setPermission: (id: string, permissionMode: Permission) =>
        call('Sessions.SetPermission', { id, permissionMode }),
      /**
       * The newest page of the transcript, or the page before log entry `before`, or (with
       * `after`) the page after log entry `after`.
       */
      transcript: (id: string, before = 0, after = 0) =>
        call('Sessions.Transcript', after ? { id, after } : before ? { id, before } : { id }),
      continue: (id: string) => call('Sessions.Continue', { id }),
      /** Where a session that runs in a worktree of its own has it. */
      worktree: (id: string) => call('Sessions.Worktree', { id }),
      /** Whether a new task in the folder should default to a worktree of its own. */
      suggestIsolation: (workspace: string) => call('Sessions.SuggestIsolation', { workspace }),
      applyWorktree: (id: string) => call('Sessions.ApplyWorktree', { id }),
      /** Everything the task changed against its base, hunk by hunk, judged against the person's folder. */
      reviewWorktree: (id: string) => call('Sessions.ReviewWorktree', { id }),
      /** Writes some hunks of one file (all pending ones when `hunks` is empty) into the person's folder. */
      applyWorktreeFile: (id: string, path: string, hunks: number[]) => call('Sessions.ApplyWorktreeFile', { id, path, hunks }),
      /** Undoes some hunks of one file (the whole file when `hunks` is empty) in the task's own copy; the reason reaches the model. */
      discardWorktreeFile: (id: string, path: string, hunks: number[], reason = '') =>
        call('Sessions.DiscardWorktreeFile', { id, path, hunks, reason }),
      mergeWorktree: (id: string, squash: boolean) => call('Sessions.MergeWorktree', { id, squash }),
      removeWorktree: (id: string) => call('Sessions.RemoveWorktree', { id }),
      restoreWorktree: (id: string) => call('Sessions.RestoreWorktree', { id }),
      /** Moves the session between its own worktree and the person's folder. */
      handOff: (id: string) => call('Sessions.HandOff', { id }),
      /** The tasks whose worktree is still there, by repository (the sidebar's "Side by side"). */
      listWorktreeTasks: () =>
        call('Sessions.ListWorktreeTasks').then((repos) => (repos ?? []).map((r) => ({ ...r, tasks: r.tasks ?? [] }))),
      /** A task's worktree changed in what the sidebar shows: its files not applied, or it was removed or restored. */
      onWorktreeChanged: on('worktree.changed'),
      onChanged: (cb: (changed: SessionsChanged) => void) =>
        on('sessions.changed')((c) => cb({ sessions: c?.sessions ?? [], removed: c?.removed ?? [] })),
      onMode: on('session.mode'),
      onPermission: on('session.permission'),
      /** A new task's worktree set-up ended; its log holds the result. */
      onWorktreeSetup: on('worktree.setup.done'),
      /** A set-up command started in a new task's worktree; the first turn waits for it. */
      onWorktreeSetupStarted: on('worktree.setup.started'),
      onAgentStatus: on('agent.status'),
      onState: on('session.state'),
    },
    composer: {
      send: (req: SendRequest) => call('Composer.Send', req),
      cancel: (sessionId: string) =>
        call('Composer.Cancel', { id: sessionId }).then((r) => r?.cancelled ?? false),
      unqueue: (sessionId: string, index: number) =>
        call('Composer.Unqueue', { sessionId, index }).then(() => undefined),
      tools: (sessionId: string) =>
        call('Composer.Tools', { id: sessionId }).then((t) =>
          // Go sends the input schema as any JSON; the fn-form reads it leniently.
          (t ?? []).map((v): ToolDef => ({ name: v.name, description: v.description, inputSchema: fieldsOf(v.inputSchema) })),
        ),
      /** approved: the person confirmed inline a call the gate asks about (never a deny). */
      runTool: (sessionId: string, name: string, input: Record<string, unknown>, approved = false) =>
        call('Composer.RunTool', { sessionId, name, input, ...(approved ? { approved } : {}) }),
    },
    decisions: {
      pending: (sessionId: string) =>
        call('Decisions.Pending', { id: sessionId }).then((d) => d ?? []),
      resolve: (req: ResolveRequest) =>
        call('Decisions.Resolve', req).then((r) => r?.won ?? false),
      onAsked: on('decision.asked'),
      onResolved: on('decision.resolved'),
    },
    turns: {
      onStarted: on('turn.started'),
      /** A turn waits for a free slot: as many turns run as Settings allow at once. */
      onWaiting: on('turn.waiting'),
      onDelta: on('turn.delta'),
      onEnded: on('turn.ended'),
      onToolCall: on('tool.call'),
      onToolOutput: on('tool.output'),
      onToolProgress: on('tool.progress'),
      // Broadcast names, never the log's entry types (tool.result, tool.direct, context.cleared).
      onToolResult: on('tool.done'),
      onDirect: on('tool.direct.done'),
      onQueue: on('queue.changed'),
      onSessionFailed: on('session.failed'),
      onCleared: on('session.cleared'),
      onCompacted: on('session.compacted'),
    },
    checkpoints: {
      list: (sessionId: string) => call('Checkpoints.List', { sessionId }).then((c) => c ?? []),
      preview: (sessionId: string, checkpointId: number, scope: RestoreScope) =>
        call('Checkpoints.Preview', { sessionId, checkpointId, scope }),
      /** deletes: the files the preview listed for deletion; any other would refuse the restore. */
      restore: (sessionId: string, checkpointId: number, scope: RestoreScope, deletes: string[]) =>
        call('Checkpoints.Restore', { sessionId, checkpointId, scope, deletes }),
      changes: (sessionId: string, turnId: string) => call('Checkpoints.Changes', { sessionId, turnId }),
      review: (req: ReviewRequest) => call('Checkpoints.Review', req),
      onCreated: on('checkpoint.created'),
      onRestored: on('checkpoint.restore.done'),
      onReviewed: on('review.done'),
    },
    settings: {
      get: () => call('Settings.Get'),
      setLanguage: (language: Language) => call('Settings.SetLanguage', { language }),
      onChanged: on('settings.changed'),
    },
    system: {
      info: () => call('System.Info'),
    },
    onReconnect,
    onConnection,
  };
}

export type Api = ReturnType<typeof createApi>;
