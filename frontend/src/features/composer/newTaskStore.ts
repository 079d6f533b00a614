import { BridgeError, type Api, type Permission, type Session, type Unsubscribe } from '../../bridge';
import { createStore } from '../../ui/store';
import { drafts as defaultDrafts, MESSAGE, NEW_TASK, type DraftStore } from '../drafts/draftStore';
import { isPermission, type DefaultPermission } from './permission';
import { DEFAULT_PREFERENCE, normalizePreference, type Preference } from './selector';

/** The backend's kinds for a missing folder and for the home folder that needs the person's word. */
export const WORKSPACE_REQUIRED = 'WORKSPACE_REQUIRED';
export const HOME_NEEDS_CONFIRMATION = 'WORKSPACE_HOME_NEEDS_CONFIRMATION';

/** A message's first line, its white space collapsed and cut to 60 characters; '' for a shortcut. */
export function firstLine(text: string): string {
  const line = text.split('\n').map((l) => l.split(/\s+/).filter(Boolean).join(' ')).find((l) => l !== '') ?? '';
  if (line.startsWith('/')) return '';
  return [...line].length <= 60 ? line : [...line].slice(0, 60).join('').trimEnd() + '…';
}

/** The new-task composer before its session exists. Everything here is draft-local (R-AUTH-2). */
export interface NewTaskState {
  text: string;
  /** The draft's own permission choice; null shows the backend default. */
  permission: Permission | null;
  preference: Preference;
  /** The folder the session will work in. There is no default: '' cannot be sent. */
  workspace: string;
  /** The person typed or chose a folder, so a recent folder arriving late does not replace it. */
  workspaceTouched: boolean;
  /** The backend asked to confirm the home folder (its path); null when not asked. */
  homeToConfirm: string | null;
  /** The external agent to run on ('' the built-in agent). */
  agent: string;
  /** Run in a git worktree of its own; carry: bring the folder's uncommitted changes along. */
  isolated: boolean;
  carry: boolean;
  /** The person chose isolated or not themselves: a suggestion no longer changes it. */
  isolatedTouched: boolean;
  /**
   * The set-up command the folder's repository proposes ('' for none), and whether the person
   * ticked it for this task: off by default, never kept past this task (code they did not write).
   */
  repoSetup: string;
  runRepoSetup: boolean;
  /** The folder is in a git repository (null: not known yet), and how many tasks run there. */
  repository: boolean | null;
  busy: number;
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
  workspaceTouched: false,
  homeToConfirm: null,
  agent: '',
  isolated: false,
  carry: false,
  isolatedTouched: false,
  repoSetup: '',
  runRepoSetup: false,
  repository: null,
  busy: 0,
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

  /**
   * Creates the session and sends the first message. `confirmHome` is the person's answer to the
   * home-folder question: only then may the home folder itself be the workspace.
   */
  async function submit(confirmHome = false): Promise<Session | null> {
    const s = store.get();
    const text = s.text.trim();
    if (text === '' || s.sending) return null;
    const workspace = s.workspace.trim();
    if (workspace === '') {
      patch({ error: new BridgeError(WORKSPACE_REQUIRED, ''), homeToConfirm: null });
      return null;
    }
    patch({ sending: true, error: null, homeToConfirm: null });
    const pref = normalizePreference(s.preference);
    let created: Session;
    try {
      created = await api.sessions.create({
        workspace,
        ...(confirmHome ? { confirmHome } : {}),
        interactionMode: pref.interactionMode,
        ...(pref.executionOverride ? { executionOverride: pref.executionOverride } : {}),
        ...(s.permission ? { permissionMode: s.permission } : {}),
        ...(s.agent ? { externalAgent: s.agent } : {}),
        // An isolated task's branch is named when it is created: after the message, as the
        // session itself would be named at its first turn.
        ...(s.isolated ? { isolated: true, title: firstLine(text), ...(s.carry ? { carryChanges: true } : {}) } : {}),
        // The repository's set-up, as shown, only when ticked for this task.
        ...(s.isolated && s.runRepoSetup && s.repoSetup !== '' ? { repoSetup: s.repoSetup } : {}),
      });
    } catch (error) {
      // The home folder is a question for the person, not a failure: the composer asks it.
      if (error instanceof BridgeError && error.kind === HOME_NEEDS_CONFIRMATION) {
        patch({ sending: false, homeToConfirm: typeof error.args.Path === 'string' ? error.args.Path : workspace });
      } else patch({ sending: false, error });
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
    setIsolated: (isolated: boolean) =>
      patch({ isolated, isolatedTouched: true, ...(isolated ? {} : { carry: false, runRepoSetup: false }) }),
    /**
     * Asks whether the folder is a repository where another task runs: isolated is then the
     * default, unless the person chose. Outside a repository there is nothing to isolate.
     */
    suggestIsolation: async (workspace: string) => {
      if (workspace.trim() === '') return;
      const got = await api.sessions.suggestIsolation(workspace.trim()).catch(() => null);
      if (!got || store.get().workspace.trim() !== workspace.trim()) return;
      store.set((s) => ({
        ...s,
        repository: got.repository,
        busy: got.busy,
        ...(got.repository ? (s.isolatedTouched ? {} : { isolated: got.isolate }) : { isolated: false, carry: false }),
        // A different proposal (another folder, an edited file) is not ticked by the old tick.
        repoSetup: got.repoSetup ?? '',
        runRepoSetup: s.runRepoSetup && (got.repoSetup ?? '') === s.repoSetup,
      }));
    },
    setCarry: (carry: boolean) => patch({ carry }),
    setRunRepoSetup: (runRepoSetup: boolean) => patch({ runRepoSetup }),
    setPreference: (p: Preference) => patch({ preference: normalizePreference(p) }),
    setWorkspace: (workspace: string) => patch({ workspace, workspaceTouched: true, homeToConfirm: null }),
    /** Offers the most recent folder, unless the person already typed or chose one. */
    suggestWorkspace: (workspace: string) =>
      store.set((s) => (s.workspaceTouched || s.workspace !== '' ? s : { ...s, workspace })),
    /** The person declined the home folder: back to choosing. */
    declineHome: () => patch({ homeToConfirm: null }),
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
