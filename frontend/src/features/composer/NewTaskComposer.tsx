import { useEffect, useMemo } from 'react';
import type { Api, Session } from '../../bridge';
import { BridgeError } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { useStore } from '../../ui/store';
import { ChipsBand } from './ChipsBand';
import { Composer } from './Composer';
import type { ModeContext } from './ComposerMode';
import { ControlsRow } from './ControlsRow';
import { RuntimePicker } from './RuntimePicker';
import { emptyQueue } from './decisionQueue';
import type { NewTaskStore } from './newTaskStore';
import { draftPermissionDisplay } from './permission';
import { cyclePreference, usePin } from './selector';
import { canRun, useProviderSettings } from './useProviderLabel';

const setupQueue = { ...emptyQueue, setupOpen: true };

const noSession = () => Promise.reject(new BridgeError('INTERNAL', 'no session yet'));

/**
 * The new-task composer: no session exists until the first message is sent. The selector and
 * the permission picker are draft-local; the default is asked afresh each time this mounts.
 */
export function NewTaskComposer({ api, draft, onStarted }: { api: Api; draft: NewTaskStore; onStarted: (s: Session) => void }) {
  const t = useT();
  const state = useStore(draft);
  const settings = useProviderSettings(api);
  const pin = usePin(state.preference);

  useEffect(() => {
    void draft.refreshDefault();
    return draft.start();
  }, [draft]);

  const ctx = useMemo<ModeContext>(
    () => ({
      t,
      sessionId: null,
      running: false,
      text: state.text,
      setText: draft.setText,
      send: async () => {
        if (!canRun(settings, { externalAgent: draft.get().agent })) {
          draft.openSetup();
          return;
        }
        const created = await draft.submit();
        if (created) onStarted(created);
        else if (draft.get().error !== null) throw draft.get().error;
      },
      cancelTurn: async () => undefined,
      openFnForm: null,
      closeFnForm: () => undefined,
      closeSetup: draft.closeSetup,
      resolve: noSession,
      listTools: noSession,
      runTool: noSession,
    }),
    [t, state.text, draft, onStarted, settings],
  );

  return (
    <Composer
      testId="new-task-composer"
      queue={state.setupOpen ? setupQueue : emptyQueue}
      ctx={ctx}
      onCycleMode={() => draft.setPreference(cyclePreference(state.preference, pin, !state.agent))}
      chips={<ChipsBand runningTurn={null} queue={[]} waiting={0} note={null} onUnqueue={() => undefined} onDismissNote={() => undefined} />}
      controls={
        <ControlsRow
          preference={state.preference}
          onPreference={draft.setPreference}
          permission={draftPermissionDisplay(state.permission, state.defaultPermission)}
          onPermission={(p) => draft.choosePermission(p)}
          onRetryPermission={() => void draft.refreshDefault()}
          settings={settings}
          runsOn={{ externalAgent: state.agent }}
          runtime={<RuntimePicker
              value={state.agent}
              agents={settings?.externalAgents ?? []}
              facts={settings?.agentFacts}
              reach={settings?.agentReach}
              sandboxed={settings?.sandbox?.namespaces === true}
              onChange={draft.setAgent}
            />}
        />
      }
    />
  );
}
