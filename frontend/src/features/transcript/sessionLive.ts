import { BridgeError, type AgentStatusEvent, type Api, type ResolveRequest, type Unsubscribe } from '../../bridge';
import { afterPaint, createFramedStore, pacedFrames } from '../../ui/store';
import { onePageAtATime } from '../../ui/paging';
import { emptyQueue, queueReducer, type QueueAction, type QueueState } from '../composer/decisionQueue';
import { carryLiveKeys, emptyTranscript, keepOlder, normalizeTranscript, transcriptReducer, withOlder, type TranscriptAction } from './transcriptReducer';
import { dropNewest, dropOldest, PAGE_ENTRIES, withLive, withNewer } from './transcriptWindow';
import type { Transcript } from '../../bridge';
import { reduceDeltas, type DeltaEvent } from './deltaBatch';
import { normalizePreference, type Preference } from '../composer/selector';

export interface SessionLiveState {
  status: 'loading' | 'ready' | 'error';
  error: unknown;
  transcript: Transcript;
  decisions: QueueState;
  /** The preference in force as this window last learned it (session.mode, Configure); null: the session's own. */
  preference: Preference | null;
  /** The session's external agent starting, ready or failed to start (agent.status); null: nothing heard. */
  agent: AgentStatusEvent | null;
  /** What could not be recorded after the last turn (session.failed); null when everything was. */
  backgroundError: BridgeError | null;
  /** Counts the messages this window sent: the transcript follows each to the bottom. */
  sent: number;
}

/**
 * One open session, live: its transcript and its pending decisions, loaded by request and kept
 * current by the broadcasts for this session (R-DEC-7). A second window or tab receives the same
 * broadcasts, so an answer given there clears the composer here.
 */
export function createSessionLive(api: Api, sessionId: string, now: () => string = () => new Date().toISOString()) {
  const store = createFramedStore<SessionLiveState>(
    {
      status: 'loading',
      error: null,
      transcript: emptyTranscript(sessionId),
      decisions: emptyQueue,
      preference: null,
      agent: null,
      backgroundError: null,
      sent: 0,
    },
    // A burst that mounts a screenful of tool cards per frame is drawn less often, not the deltas.
    pacedFrames(),
  );
  /** Bumped by every turn start: a snapshot requested before it may miss the new turn's stream. */
  let epoch = 0;

  const reduce = (a: TranscriptAction) => (s: SessionLiveState) => withPart(s, 'transcript', transcriptReducer(s.transcript, a));
  // The answer's deltas that arrived in this task (a broadcast brings many at once): applied in
  // one reducer pass (deltaBatch.ts) once the task is over, before anything else is applied.
  let deltas: DeltaEvent[] = [];
  const flushDeltas = () => {
    if (deltas.length === 0) return;
    const batch = deltas;
    deltas = [];
    store.setLater((s) => withPart(s, 'transcript', reduceDeltas(s.transcript, batch)));
  };
  const apply = (a: TranscriptAction) => {
    flushDeltas();
    store.set(reduce(a));
  };
  // A turn streams its deltas and tool events in bursts (25 calls a step, each with its result):
  // they are applied at once but drawn at most once a frame (less often while drawing is costly,
  // see pacedFrames), not one render and layout per event. The rest (a turn's start and end, a
  // send, a decision) is told at once, with what was held back.
  const stream = (a: TranscriptAction) => {
    if (a.type === 'turn.delta') {
      if (deltas.push(a.e) === 1) queueMicrotask(flushDeltas);
      return;
    }
    flushDeltas();
    store.setLater(reduce(a));
  };
  const decide = (a: QueueAction) => store.set((s) => withPart(s, 'decisions', queueReducer(s.decisions, a)));
  const mine = <T extends { sessionId?: string }>(f: (e: T) => void) => (e: T) => {
    if (e?.sessionId === sessionId) f(e);
  };

  async function load() {
    const at = epoch;
    store.set((s) => ({ ...s, status: s.status === 'ready' ? 'ready' : 'loading', error: null }));
    try {
      const t = normalizeTranscript({ ...(await api.sessions.transcript(sessionId)), sessionId });
      if (at !== epoch && store.get().status === 'ready') return;
      store.set((s) => ({
        ...s,
        status: 'ready',
        error: null,
        // The deltas seen so far stay seen: one published before the snapshot may still arrive;
        // the rows shown live keep their keys, so the view does not draw them afresh. A window
        // scrolled back far from the newest end keeps its items and takes only what is live.
        transcript: s.transcript.newer
          ? withLive(s.transcript, keepFailures(s.transcript, t))
          : { ...carryLiveKeys(s.transcript, keepOlder(s.transcript, keepFailures(s.transcript, t))), deltaSeq: s.transcript.deltaSeq },
        decisions: queueReducer(s.decisions, { type: 'restore', pending: t.pending }),
      }));
    } catch (error) {
      store.set((s) => (s.status === 'ready' ? s : { ...s, status: 'error', error }));
    }
  }

  /** Cancels the reload a turn's end scheduled after its paint (none pending: a no-op). */
  let reconcile: () => void = () => {};

  /** Scrolling up asks for each page once. */
  const onePage = onePageAtATime();

  /** A page of the log, read as the window holds it (the running turn as this window knows it). */
  const page = (before: number, after = 0) =>
    api.sessions.transcript(sessionId, before, after).then((p) => normalizeTranscript({ ...p, sessionId, running: store.get().transcript.running }));

  /**
   * Loads the page before the oldest shown, if there is one: the person scrolled up to it. The
   * window then drops as many of its newest items (see transcriptWindow.ts).
   */
  function loadOlder(): Promise<void> {
    const { transcript, status } = store.get();
    if (status !== 'ready' || !transcript.more || !transcript.first) return Promise.resolve();
    const before = transcript.first;
    return onePage(() =>
      page(before).then((older) => {
        store.set((s) => (s.transcript.first !== before ? s : { ...s, transcript: dropNewest(withOlder(s.transcript, older)) }));
      }),
    );
  }

  /**
   * Loads the page after the newest shown, when the window dropped it: the person scrolled back
   * down toward it. The window then drops as many of its oldest items; once it reaches the newest
   * end again, that end is read afresh, with what streamed meanwhile.
   */
  function loadNewer(): Promise<void> {
    const { transcript, status } = store.get();
    if (status !== 'ready' || !transcript.newer || !transcript.last) return Promise.resolve();
    const after = transcript.last;
    return onePage(() =>
      page(0, after).then((newer) => {
        store.set((s) =>
          s.transcript.last !== after || !s.transcript.newer ? s : { ...s, transcript: dropOldest(withNewer(s.transcript, newer)) },
        );
        if (!store.get().transcript.newer) return load();
      }),
    );
  }

  /** Shows one page in place of the window: a jump to either end of the log. */
  function showPage(read: () => Promise<Transcript>): Promise<void> {
    return read().then((p) => {
      store.set((s) => ({ ...s, transcript: { ...keepFailures(s.transcript, p), deltaSeq: s.transcript.deltaSeq } }));
    });
  }

  /** The first page of the log, read by its entry numbers (they start at 1), not by scrolling. */
  const jumpToStart = () => showPage(() => page(PAGE_ENTRIES + 1).then((p) => ({ ...p, newer: (p.last ?? 0) < lastKnown() })));

  /** The newest entry the window knows the log to hold. */
  const lastKnown = () => {
    const t = store.get().transcript;
    return t.newer ? Number.MAX_SAFE_INTEGER : (t.last ?? 0);
  };

  /** The newest page in place of a window scrolled back far from it (nothing to do otherwise). */
  function jumpToLatest(): Promise<void> {
    if (!store.get().transcript.newer) return Promise.resolve();
    return showPage(() => page(0));
  }

  return {
    ...store,
    sessionId,
    load,
    loadOlder,
    loadNewer,
    jumpToStart,
    jumpToLatest,
    start(): Unsubscribe {
      const offs = [
        api.turns.onStarted(
          mine((e) => {
            epoch++;
            apply({ type: 'turn.started', e, at: now() });
          }),
        ),
        api.turns.onDelta(mine((e) => stream({ type: 'turn.delta', e }))),
        api.turns.onEnded(
          mine((e) => {
            apply({ type: 'turn.ended', e });
            // The stored transcript is the truth once the turn is over: reconcile with it, once
            // the end is on screen (reading and drawing a page of the log must not hold it back).
            reconcile();
            reconcile = afterPaint(() => void load());
          }),
        ),
        api.turns.onToolCall(mine((e) => stream({ type: 'tool.call', e }))),
        api.turns.onToolOutput(mine((e) => stream({ type: 'tool.output', e }))),
        api.turns.onToolProgress(mine((e) => stream({ type: 'tool.progress', e }))),
        api.turns.onToolResult(mine((e) => stream({ type: 'tool.result', e }))),
        api.turns.onDirect(mine((e) => apply({ type: 'tool.direct', e }))),
        api.turns.onQueue(mine((e) => apply({ type: 'queue.changed', e }))),
        api.turns.onCleared(mine(() => apply({ type: 'context.cleared' }))),
        // A compaction is recorded between two steps, with nothing streaming: read it afresh.
        api.turns.onCompacted(mine(() => void load())),
        api.checkpoints.onCreated(mine((e) => stream({ type: 'checkpoint.created', e }))),
        // A restore or a review adds its entry to the log (and may change files): read it afresh.
        api.checkpoints.onRestored(mine(() => void load())),
        api.checkpoints.onReviewed(mine(() => void load())),
        api.turns.onSessionFailed(
          mine((e) => {
            store.set((s) => ({ ...s, backgroundError: new BridgeError(e.kind, '', e.args ?? {}) }));
            void load();
          }),
        ),
        api.sessions.onMode(
          mine((e) => {
            apply({ type: 'session.mode', e });
            store.set((s) => ({ ...s, preference: normalizePreference(e) }));
          }),
        ),
        api.sessions.onPermission(mine((e) => apply({ type: 'session.permission', e }))),
        // A worktree's set-up ends outside any turn, its result in the log: read it afresh.
        api.sessions.onWorktreeSetup(mine(() => void load())),
        api.sessions.onAgentStatus(mine((agent) => store.set((s) => ({ ...s, agent })))),
        api.decisions.onAsked(mine((decision) => decide({ type: 'asked', decision }))),
        api.decisions.onResolved(mine((resolved) => decide({ type: 'resolved', resolved }))),
        api.onReconnect(() => void load()),
      ];
      void load();
      return () => {
        reconcile(); // a view closed before the end was painted reads nothing more
        offs.forEach((off) => off());
      };
    },
    /** Sends a message (a steer while a turn runs, queued behind a pending switch); true when accepted. */
    async send(text: string): Promise<void> {
      const ack = await api.composer.send({ sessionId, text });
      // The message lands at the newest end: a window scrolled back far from it reads it first.
      if (store.get().transcript.newer) await jumpToLatest();
      const withMessage = reduce({ type: 'sent', text, ack: ack ?? {} });
      const follow = (s: SessionLiveState) => ({ ...withMessage(s), sent: s.sent + 1 });
      // Shown already (turn.started came first, as it often does): only the follow to the bottom
      // is left, and it is drawn with what streams, not in a drawing of its own that would draw
      // the whole burst held back so far in the middle of the turn.
      if (withMessage(store.get()) === store.get()) store.setLater(follow);
      else store.set(follow);
      decide({ type: 'dismissNote' });
    },
    cancel: () => api.composer.cancel(sessionId),
    unqueue: (index: number) => api.composer.unqueue(sessionId, index),
    continueTurn: () => api.sessions.continue(sessionId),
    async resolve(req: ResolveRequest): Promise<boolean> {
      const won = await api.decisions.resolve(req);
      // Whoever won, the decision is over; decision.resolved confirms it for every window.
      decide({ type: 'answered', id: req.id });
      return won;
    },
    async runTool(name: string, input: Record<string, unknown>, approved = false) {
      const result = await api.composer.runTool(sessionId, name, input, approved);
      // Nothing ran: the form stays open and asks the person to confirm.
      if (result?.needsApproval) return result;
      if (result) apply({ type: 'tool.direct', e: result });
      decide({ type: 'closeFnForm' });
      return result;
    },
    setPreference: (p: Preference) => store.set((s) => ({ ...s, preference: normalizePreference(p) })),
    openFnForm: () => decide({ type: 'openFnForm' }),
    closeFnForm: () => decide({ type: 'closeFnForm' }),
    openSetup: () => decide({ type: 'openSetup' }),
    closeSetup: () => decide({ type: 'closeSetup' }),
    dismissNote: () => decide({ type: 'dismissNote' }),
    dismissBackgroundError: () => store.set((s) => ({ ...s, backgroundError: null })),
  };
}

export type SessionLive = ReturnType<typeof createSessionLive>;

/**
 * The state with one part replaced, or the state itself when that part did not change: a change
 * that changes nothing tells nobody, and each telling draws everything held back so far.
 */
function withPart<K extends keyof SessionLiveState>(s: SessionLiveState, key: K, value: SessionLiveState[K]): SessionLiveState {
  return Object.is(s[key], value) ? s : { ...s, [key]: value };
}

/** The stored turns have their error as text only: keep the message turn.ended brought for it. */
function keepFailures(before: Transcript, after: Transcript): Transcript {
  const failures = new Map(before.turns.filter((x) => x.failure).map((x) => [x.id, x]));
  if (failures.size === 0) return after;
  const turns = after.turns.map((x) => {
    const live = failures.get(x.id);
    return live && live.error === x.error ? { ...x, failure: live.failure } : x;
  });
  return { ...after, turns };
}
