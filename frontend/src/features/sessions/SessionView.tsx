import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Api, Session } from '../../bridge';
import { useI18n } from '../../i18n/I18nProvider';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FolderIcon, SparkIcon, TerminalIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { useStore } from '../../ui/store';
import { SessionComposer } from '../composer/SessionComposer';
import { AgentStatusLine } from '../transcript/AgentStatusLine';
import { agentName } from '../composer/RuntimePicker';
import { createSessionLive } from '../transcript/sessionLive';
import { warmMarkdown } from '../transcript/markdown';
import { markdownPart } from '../transcript/markdownPart';
import { Transcript } from '../transcript/Transcript';
import { fullDateTime } from './formatTime';
import { CheckpointActionsContext, type CheckpointActions } from '../checkpoints/actions';
import { ChangesView } from '../checkpoints/ChangesView';
import { RestoreView } from '../checkpoints/RestoreView';
import { ConflictNotice } from '../worktree/ConflictNotice';
import { TaskChangesView } from '../worktree/TaskChangesView';
import { WorktreeBar } from '../worktree/WorktreeBar';
import { composerCommand } from '../keys/composerCommands';
import { SetupRunning } from '../worktree/SetupRunning';
import { SlotWait } from './SlotWait';

/** What the session's main area shows: the conversation, a turn's Changes, or a restore's preview. */
type Pane = { kind: 'transcript' } | { kind: 'changes'; turnId: string } | { kind: 'restore'; checkpointId: number } | { kind: 'taskChanges' };

/** The selected session: its header, the live transcript, and the composer docked below it. */
export function SessionView({
  api,
  session,
  onSessionUpdated,
  onOpenSession,
}: {
  api: Api;
  session: Session;
  onSessionUpdated: (s: Session) => void;
  /** Opens another session (the fork a conversation restore made). */
  onOpenSession?: (id: string) => void;
}) {
  const { t, lang } = useI18n();
  // The Markdown renderer is made ready when the view opens, not when its transcript first draws:
  // a new session's transcript appears with its first answer, which would pay for it while it
  // streams. A plan review in the composer draws its Markdown from the part, at hand once loaded.
  useEffect(() => {
    warmMarkdown();
    void markdownPart.load().catch(() => undefined);
  }, []);
  const live = useMemo(() => createSessionLive(api, session.id), [api, session.id]);
  useEffect(() => live.start(), [live]);
  const state = useStore(live);
  const [pane, setPane] = useState<Pane>({ kind: 'transcript' });
  const closePane = useCallback(() => setPane({ kind: 'transcript' }), []);
  const reviewTask = useCallback(() => setPane({ kind: 'taskChanges' }), []);
  const forked = useCallback(
    (fork: Session) => {
      onSessionUpdated(fork);
      onOpenSession?.(fork.id);
    },
    [onSessionUpdated, onOpenSession],
  );
  // Read when a marker renders, so the actions stay the same object while turns arrive.
  const turns = useRef(state.transcript.turns);
  turns.current = state.transcript.turns;
  const actions = useMemo<CheckpointActions>(
    () => ({
      restorable: (turnId) => turns.current.find((x) => x.id === turnId)?.executionMode !== 'chat',
      restore: (checkpointId) => setPane({ kind: 'restore', checkpointId }),
      review: (turnId) => setPane({ kind: 'changes', turnId }),
      openSession: (id) => onOpenSession?.(id),
      forkBefore: (before) => api.sessions.fork(session.id, before).then(forked),
    }),
    [onOpenSession, api, session.id, forked],
  );
  // Only the mode it was created in (or a permission chosen): nothing happened yet.
  const empty = state.transcript.turns.length === 0 && state.transcript.items.every((i) => i.type === 'mode' || i.type === 'permission');

  return (
    <article className="session-view" data-testid="session-view" data-session-id={session.id} aria-labelledby="session-title">
      <header className="session-view__header">
        <h1 id="session-title" className="session-view__title" data-testid="session-heading" tabIndex={-1}>
          {session.title}
        </h1>
        <div className="session-view__meta">
          <span className="meta-chip" title={t('shell.session.workspace')}>
            <FolderIcon size={13} />
            <span className="mono" data-testid="session-workspace">
              {session.workspace}
            </span>
          </span>
          {session.externalAgent && (
            <span className="meta-chip meta-chip--agent" title={`${t('composer.session.agentTitle')}: ${session.externalAgent}`} data-testid="session-agent">
              <TerminalIcon size={13} />
              <span className="mono">{t('composer.session.agent', { Agent: agentName(session.externalAgent) })}</span>
            </span>
          )}
          <span className="meta-text">{t('shell.session.created', { When: fullDateTime(session.createdAt, lang) })}</span>
        </div>
        <WorktreeBar api={api} sessionId={session.id} onReview={reviewTask} />
      </header>
      {pane.kind === 'taskChanges' ? (
        <TaskChangesView api={api} sessionId={session.id} onClose={closePane} />
      ) : pane.kind === 'changes' ? (
        <ChangesView api={api} sessionId={session.id} turnId={pane.turnId} onClose={closePane} />
      ) : pane.kind === 'restore' ? (
        <RestoreView api={api} sessionId={session.id} checkpointId={pane.checkpointId} onClose={closePane} onForked={forked} />
      ) : state.status === 'loading' ? (
        <div className="transcript transcript--center">
          <Spinner label={t('shell.state.loading')} size={20} />
        </div>
      ) : state.status === 'error' ? (
        <div className="transcript transcript--center">
          <ErrorNotice error={state.error} title={t('composer.transcript.loadFailed')} onRetry={() => void live.load()} testId="transcript-error" />
        </div>
      ) : empty ? (
        <section className="transcript transcript--center" aria-label={t('shell.session.transcript')} data-testid="transcript-empty">
          <div className="empty-state empty-state--quiet">
            <div className="empty-state__art">
              <SparkIcon size={24} />
            </div>
            <h2 className="empty-state__title">{t(session.demo ? 'composer.demo.emptyTitle' : 'shell.session.emptyTitle')}</h2>
            <p className="empty-state__text">{t(session.demo ? 'composer.demo.emptyBody' : 'shell.session.emptyBody')}</p>
          </div>
        </section>
      ) : (
        <CheckpointActionsContext.Provider value={actions}>
          <Transcript
            transcript={state.transcript}
            sent={state.sent}
            waiting={state.decisions.pending.length > 0}
            onStop={() => {
              // Stopping a turn asks first, in the composer; without one on screen it stops at once.
              if (!composerCommand('stop')) void live.cancel();
            }}
            onContinue={() => void live.continueTurn()}
            onOlder={() => void live.loadOlder()}
            onNewer={() => void live.loadNewer()}
            onStart={() => void live.jumpToStart()}
            onLatest={() => void live.jumpToLatest()}
          />
        </CheckpointActionsContext.Provider>
      )}
      <div className="session-view__composer">
        <AgentStatusLine status={state.agent} />
        <SlotWait api={api} sessionId={session.id} />
        <SetupRunning api={api} sessionId={session.id} />
        <ConflictNotice sessionId={session.id} onReview={reviewTask} />
        <SessionComposer api={api} session={session} live={live} onSessionUpdated={onSessionUpdated} />
      </div>
    </article>
  );
}
