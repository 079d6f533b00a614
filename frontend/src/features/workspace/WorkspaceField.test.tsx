import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../app/App';
import { FakeDesk } from '../../app/testing/fakeDesk';
import { preloadViews } from '../../app/views';
import { createApi } from '../../bridge';
import { createSettingsApi } from '../../bridge/settingsApi';
import { session } from '../../test/fakeTransport';
import { drafts } from '../drafts/draftStore';
import { createFoldersApi } from './foldersApi';

beforeAll(() => preloadViews());
beforeEach(() => drafts.reset());

async function open(fake: FakeDesk) {
  render(<App api={createApi(() => fake)} settingsApi={createSettingsApi(() => fake)} foldersApi={createFoldersApi(() => fake)} />);
  const composer = await screen.findByTestId('new-task-composer');
  return { composer, user: userEvent.setup(), folder: () => screen.getByTestId('new-task-workspace') as HTMLInputElement };
}

const creates = (f: FakeDesk) => f.called('Sessions.Create').map((c) => c.req);

describe('the new task folder field', () => {
  it('starts empty on first run and sends nothing without a folder, saying so', async () => {
    const fake = new FakeDesk();
    const { composer, user, folder } = await open(fake);
    expect(folder().value).toBe('');
    // The field docks with the composer, not in the part of the page that scrolls.
    expect(screen.getByTestId('workspace-field').closest('.new-task__composer')).not.toBeNull();
    await user.type(within(composer).getByTestId('composer-input'), 'Fix the build{Enter}');
    expect((await screen.findByTestId('composer-error')).textContent).toContain('Choose a folder');
    expect(creates(fake)).toEqual([]);
  });

  it('browses folder names in the browser, refuses the root with its reason, and fills the field', async () => {
    const fake = new FakeDesk();
    const { user, folder } = await open(fake);
    await user.click(screen.getByTestId('workspace-browse'));
    const dialog = await screen.findByTestId('folder-dialog');
    await waitFor(() => expect(within(dialog).getAllByTestId('folder-dialog-entry').map((e) => e.textContent)).toEqual(['notes', 'project']));
    await user.click(within(dialog).getByTestId('folder-dialog-up'));
    await user.click(within(dialog).getByTestId('folder-dialog-up'));
    expect((await within(dialog).findByTestId('folder-dialog-refusal')).textContent).toContain('system folder');
    expect(within(dialog).getByTestId('folder-dialog-choose')).toHaveProperty('disabled', true);
    await user.click(within(dialog).getByText('home'));
    await user.click(await within(dialog).findByText('ada'));
    await user.click(await within(dialog).findByText('project'));
    await waitFor(() => expect((within(dialog).getByTestId('folder-dialog-path') as HTMLInputElement).value).toBe('/home/ada/project'));
    await user.click(within(dialog).getByTestId('folder-dialog-choose'));
    expect(screen.queryByTestId('folder-dialog')).toBeNull();
    expect(folder().value).toBe('/home/ada/project');
    expect(fake.called('Folders.Pick')).toEqual([]);
  });

  it('opens the native dialog in the desktop window', async () => {
    const fake = new FakeDesk();
    fake.transport = 'desktop';
    fake.picked = '/home/ada/notes';
    const { user, folder } = await open(fake);
    await waitFor(() => expect(fake.called('System.Info').length).toBeGreaterThan(0));
    await user.click(screen.getByTestId('workspace-browse'));
    await waitFor(() => expect(folder().value).toBe('/home/ada/notes'));
    expect(screen.queryByTestId('folder-dialog')).toBeNull();
  });

  it('asks before the whole home folder, naming what the agent could read, and creates only once confirmed', async () => {
    const fake = new FakeDesk();
    const { composer, user, folder } = await open(fake);
    await user.type(folder(), '/home/ada');
    await user.type(within(composer).getByTestId('composer-input'), 'Tidy my dotfiles{Enter}');
    const ask = await screen.findByTestId('home-confirm');
    expect(ask.textContent).toContain('~/.ssh');
    expect(ask.textContent).toContain('~/.aws');
    expect(fake.sessions).toHaveLength(0);
    await user.click(within(ask).getByTestId('home-confirm-button'));
    await waitFor(() => expect(fake.sessions).toHaveLength(1));
    expect(creates(fake).at(-1)).toMatchObject({ workspace: '/home/ada', confirmHome: true });
  });

  it('offers recent folders, most recent first, and starts from the most recent one', async () => {
    const fake = new FakeDesk({
      sessions: [
        { ...session('a', 'Old', '2025-01-01T08:00:00Z'), workspace: '/srv/old' },
        { ...session('b', 'New', '2025-01-02T08:00:00Z'), workspace: '/srv/new' },
      ],
    });
    render(<App api={createApi(() => fake)} settingsApi={createSettingsApi(() => fake)} foldersApi={createFoldersApi(() => fake)} />);
    const user = userEvent.setup();
    await screen.findByTestId('session-view');
    await user.click(screen.getByTestId('new-session'));
    const folder = (await screen.findByTestId('new-task-workspace')) as HTMLInputElement;
    await waitFor(() => expect(folder.value).toBe('/srv/new'));
    const recent = screen.getByTestId('workspace-recent') as HTMLSelectElement;
    expect([...recent.options].map((o) => o.value)).toEqual(['', '/srv/new', '/srv/old']);
    await user.selectOptions(recent, '/srv/old');
    expect(folder.value).toBe('/srv/old');
  });
});
