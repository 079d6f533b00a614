import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { BridgeError, type Api, type Permission, type Session } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { useStore } from '../../ui/store';
import { drafts } from '../drafts/draftStore';
import { useDraftText } from '../drafts/useDraftText';
import type { SessionLive } from '../transcript/sessionLive';
import { runningMode } from '../transcript/transcriptReducer';
import { ChipsBand } from './ChipsBand';
import { Composer } from './Composer';
import type { ModeContext } from './ComposerMode';
import { ControlsRow } from './ControlsRow';
import { sessionPermissionDisplay } from './permission';
import { cyclePreference, normalizePreference, samePreference, sessionPreference, usePin, type Preference } from './selector';
import { canRun, useProviderSettings } from './useProviderLabel';

/**
 * The composer of an open session. Selector changes go to Sessions.Configure (queued while a turn
 * runs); a permission change goes to Sessions.SetPermission and stays in this session.
 */
export function SessionComposer({
  api,
  session,
  live,
  onSessionUpdated,
}: {
  api: Api;
  session: Session;
  live: SessionLive;
  onSessionUpdated: (s: Session) => void;
}) {
  const t = useT();
  const state = useStore(live);
  const settings = useProviderSettings(api);
  const [text, setText] = useDraftText(session.id);
  const [controlError, setControlError] = useState<unknown>(null);
  const { transcript, decisions } = state;
  const shownError = controlError ?? state.backgroundError;
  const running = transcript.running !== '';
  useDemoSuggestion(session, state.status === 'ready' && transcript.turns.length === 0, text, setText);
  const pendingIds = decisions.pending.map((d) => d.id).join('\n');
  useEffect(() => {
    // Only the loaded list says which decisions still wait; before it, every draft may still be needed.
    if (state.status === 'ready') drafts.keepDecisions(session.id, pendingIds ? pendingIds.split('\n') : []);
  }, [state.status, session.id, pendingIds]);
  const preference = state.preference ?? sessionPreference(session);
  const pin = usePin(preference);

  const ctx = useMemo<ModeContext>(
    () => ({
      t,
      sessionId: session.id,
      running,
      text,
      setText,
      send: async (msg) => {
        if (!canRun(settings, session)) {
          live.openSetup();
          return;
        }
        try {
          await live.send(msg);
        } catch (err) {
          if (err instanceof BridgeError && err.kind === 'NO_PROVIDER') {
            live.openSetup();
            return;
          }
          throw err;
        }
        setText('');
      },
      cancelTurn: async () => {
        await live.cancel();
      },
      // Chat runs no tool: the Tools form is not offered there.
      openFnForm: preference.interactionMode === 'chat' ? null : live.openFnForm,
      closeFnForm: live.closeFnForm,
      closeSetup: live.closeSetup,
      resolve: live.resolve,
      listTools: () => api.composer.tools(session.id),
      runTool: live.runTool,
    }),
    [t, session, running, text, live, api, settings, preference.interactionMode],
  );

  const configure = useCallback(
    async (next: Preference) => {
      const p = normalizePreference(next);
      if (samePreference(p, preference) && transcript.queue.every((q) => !q.switch)) return;
      setControlError(null);
      try {
        const res = await api.sessions.configure({ id: session.id, interactionMode: p.interactionMode, executionOverride: p.executionOverride });
        if (res?.session) onSessionUpdated(res.session);
        if (!res?.queued) live.setPreference(p);
      } catch (err) {
        setControlError(err);
      }
    },
    [api, session.id, preference, transcript.queue, live, onSessionUpdated],
  );

  const setPermission = useCallback(
    async (p: Permission) => {
      setControlError(null);
      try {
        onSessionUpdated(await api.sessions.setPermission(session.id, p));
      } catch (err) {
        setControlError(err);
      }
    },
    [api, session.id, onSessionUpdated],
  );

  const runningTurn = running ? (transcript.turns.find((x) => x.id === transcript.running) ?? null) : null;

  return (
    <>
      {shownError !== null && (
        <div className="composer-toast">
          <ErrorNotice
            error={shownError}
            onDismiss={() => {
              setControlError(null);
              live.dismissBackgroundError();
            }}
            testId="composer-control-error"
          />
        </div>
      )}
      <Composer
        queue={decisions}
        ctx={ctx}
        onCycleMode={() => void configure(cyclePreference(preference, pin, !session.externalAgent))}
        chips={
          <ChipsBand
            runningTurn={runningTurn}
            runningAs={runningMode(transcript)}
            waitingFor={decisions.pending[0]?.kind ?? null}
            queue={transcript.queue}
            waiting={Math.max(decisions.pending.length - 1, 0)}
            note={decisions.note}
            onUnqueue={(i) => void live.unqueue(i).catch(setControlError)}
            onDismissNote={live.dismissNote}
          />
        }
        controls={
          <ControlsRow
            preference={preference}
            onPreference={(p) => void configure(p)}
            permission={sessionPermissionDisplay(session.permissionMode)}
            onPermission={setPermission}
            settings={settings}
            runsOn={session}
          />
        }
      />
    </>
  );
}

/** A fresh demo session lands with a suggested first message in the box. */
function useDemoSuggestion(session: Session, empty: boolean, text: string, setText: (s: string) => void) {
  const t = useT();
  // A draft the person left wins over the suggestion, and clearing it does not bring one back.
  const offered = useRef(text !== '');
  useEffect(() => {
    if (!session.demo || !empty || offered.current) return;
    offered.current = true;
    setText(t('composer.demo.suggestion'));
  }, [session.demo, empty, setText, t]);
}
