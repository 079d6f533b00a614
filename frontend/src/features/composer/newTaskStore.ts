import { BridgeError, type Api, type Permission, type Session, type Unsubscribe } from '../../bridge';
import { createStore } from '../../ui/store';
import { drafts as defaultDrafts, MESSAGE, NEW_TASK, type DraftStore } from '../drafts/draftStore';
import { isPermission, type DefaultPermission } from './permission';
import { DEFAULT_PREFERENCE, normalizePreference, type Preference } from './selector';

/** The new-task composer before its session exists. Everything here is draft-local (R-AUTH-2). */
export interface NewTaskState {
  text: string;
  /** The draft's own permission choice; null shows the backend default. */
  permission: Permission | null;
  preference: Preference;
  /** '' means the server's default workspace. */
  workspace: string;
  /** The external agent to run on ('' the built-in agent). */
  agent: string;
  defaultPermission: DefaultPermission;
  sending: boolean;
  /** Why the last submit failed; the draft is kept as it was. */
  error: unknown;
  /** Send found no model: the composer shows the set-up instead (nothing was created). */
  setupOpen: boolean;
}

const initial = (): NewTaskState => ({
  text: '',
  permission: null,
  preference: DEFAULT_PREFERENCE,
  workspace: '',
  agent: '',
  defaultPermission: { status: 'loading' },
  sending: false,
  error: null,
  setupOpen: false,
});

/**
 * The new-task draft and its one flow: Sessions.Create (with the permission only when the draft
 * holds one) then Composer.Send. The draft — choice included — is consumed only after the first
 * send kept its session; a failed first send removes the session it made and leaves the draft.
 * Nothing here writes the Settings default.
 */
export function createNewTaskStore(api: Api, drafts: DraftStore = defaultDrafts) {
  const store = createStore<NewTaskState>({ ...initial(), text: drafts.text(NEW_TASK) });
  let query = 0;

  const patch = (p: Partial<NewTaskState>) => store.set((s) => ({ ...s, ...p }));

  /** Asks the backend for the default; called for every new task, never cached across them. */
  async function refreshDefault() {
    const mine = ++query;
    patch({ defaultPermission: { status: 'loading' } });
    let next: DefaultPermission;
    try {
      const settings = await api.settings.get();
      next = isPermission(settings.defaultPermission)
        ? { status: 'ready', mode: settings.defaultPermission }
        : { status: 'error', error: null };
    } catch (error) {
      next = { status: 'error', error };
    }
    if (mine === query) patch({ defaultPermission: next });
  }

  async function submit(): Promise<Session | null> {
    const s = store.get();
    const text = s.text.trim();
    if (text === '' || s.sending) return null;
    patch({ sending: true, error: null });
    const pref = normalizePreference(s.preference);
    let created: Session;
    try {
      created = await api.sessions.create({
        ...(s.workspace.trim() ? { workspace: s.workspace.trim() } : {}),
        interactionMode: pref.interactionMode,
        ...(pref.executionOverride ? { executionOverride: pref.executionOverride } : {}),
        ...(s.permission ? { permissionMode: s.permission } : {}),
        ...(s.agent ? { externalAgent: s.agent } : {}),
      });
    } catch (error) {
      patch({ sending: false, error });
      return null;
    }
    try {
      await api.composer.send({ sessionId: created.id, text });
    } catch (error) {
      // The first send did not keep its session: take the session back, keep the draft whole.
      await api.sessions.remove(created.id).catch(() => undefined);
      if (error instanceof BridgeError && error.kind === 'NO_PROVIDER') patch({ sending: false, setupOpen: true });
      else patch({ sending: false, error });
      return null;
    }
    ++query;
    drafts.clear(NEW_TASK, MESSAGE);
    store.set(initial());
    return created;
  }

  return {
    ...store,
    refreshDefault,
    submit,
    setText: (text: string) => {
      drafts.set(NEW_TASK, MESSAGE, text);
      patch({ text });
    },
    choosePermission: (permission: Permission | null) => patch({ permission }),
    setPreference: (p: Preference) => patch({ preference: normalizePreference(p) }),
    setWorkspace: (workspace: string) => patch({ workspace }),
    /** An external agent offers no Chat: choosing one leaves Chat for Smart. */
    setAgent: (agent: string) =>
      store.set((s) => ({
        ...s,
        agent,
        preference: agent && s.preference.interactionMode === 'chat' ? { interactionMode: 'smart', executionOverride: '' } : s.preference,
      })),
    dismissError: () => patch({ error: null }),
    openSetup: () => patch({ setupOpen: true, error: null }),
    closeSetup: () => patch({ setupOpen: false }),
    /** Follows the default while the draft is open (Settings changed in another window). */
    start(): Unsubscribe {
      return api.settings.onChanged((settings) => {
        if (isPermission(settings.defaultPermission)) {
          ++query;
          patch({ defaultPermission: { status: 'ready', mode: settings.defaultPermission } });
        }
      });
    },
  };
}

export type NewTaskStore = ReturnType<typeof createNewTaskStore>;
