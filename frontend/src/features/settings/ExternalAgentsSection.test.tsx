import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { defaultSettings, FakeSettingsBackend } from './testing/fakeSettingsBackend';
import { renderSettingsPage } from './testing/renderSettingsPage';

const commands = () => screen.queryAllByTestId('external-agent-command').map((el) => el.textContent);
const writes = (backend: FakeSettingsBackend) => backend.called('Settings.SetExternalAgents').map((c) => c.req);

describe('Settings: external agents', () => {
  it('explains what an external agent is, shows the empty state, and adds a typed command line', async () => {
    const backend = new FakeSettingsBackend();
    renderSettingsPage(backend);
    const user = userEvent.setup();
    const section = await screen.findByTestId('external-agents-section');
    expect(section.textContent).toContain('starts the command over stdio');
    expect(section.textContent).toContain('permission requests appear in the composer like any approval');
    expect(section.textContent).toContain('Chat is not available for external agents, because AgentDesk cannot enforce their no-tool contract');
    expect(within(section).getByTestId('external-agents-empty').textContent).toContain('No external agents');

    const input = screen.getByTestId('external-agent-input') as HTMLInputElement;
    const addButton = screen.getByTestId('external-agent-add') as HTMLButtonElement;
    expect(addButton.disabled).toBe(true);
    await user.type(input, '   ');
    expect(addButton.disabled).toBe(true);
    await user.clear(input);

    await user.type(input, '  my-agent --acp {Enter}');
    await waitFor(() => expect(commands()).toEqual(['my-agent --acp']));
    expect(writes(backend)).toEqual([{ commands: ['my-agent --acp'] }]);
    expect(input.value).toBe('');
    expect(screen.queryByTestId('external-agents-empty')).toBeNull();
    expect(backend.settings.externalAgents).toEqual(['my-agent --acp']);
  });

  it('adds a suggestion in one click, then stops offering it', async () => {
    const backend = new FakeSettingsBackend({ settings: { externalAgents: ['claude-code-acp'] } });
    renderSettingsPage(backend);
    const user = userEvent.setup();
    await screen.findByTestId('external-agent-list');
    // A suggestion already in the list is not offered again.
    expect(screen.queryByTestId('external-agent-suggestion-claude-code-acp')).toBeNull();
    const goose = screen.getByTestId('external-agent-suggestion-goose');
    expect(goose.getAttribute('aria-label')).toBe('Add the external agent goose acp');

    await user.click(goose);
    await waitFor(() => expect(commands()).toEqual(['claude-code-acp', 'goose acp']));
    expect(writes(backend)).toEqual([{ commands: ['claude-code-acp', 'goose acp'] }]);
    expect(screen.queryByTestId('external-agent-suggestion-goose')).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('external-agent-input'));

    await user.click(screen.getByTestId('external-agent-suggestion-gemini'));
    await waitFor(() => expect(commands()).toEqual(['claude-code-acp', 'goose acp', 'gemini --experimental-acp']));
    // With every suggestion listed, the suggestions row goes away.
    expect(screen.queryByText('Suggestions:')).toBeNull();
  });

  it('removes one agent at a time and moves the focus to what took its place', async () => {
    const backend = new FakeSettingsBackend({ settings: { externalAgents: ['goose acp', 'claude-code-acp'] } });
    renderSettingsPage(backend);
    const user = userEvent.setup();
    await waitFor(() => expect(commands()).toEqual(['goose acp', 'claude-code-acp']));
    const [first] = screen.getAllByTestId('external-agent-item');
    const remove = within(first!).getByTestId('external-agent-remove');
    expect(remove.getAttribute('aria-label')).toBe('Remove the external agent goose acp');

    await user.click(remove);
    await waitFor(() => expect(commands()).toEqual(['claude-code-acp']));
    expect(writes(backend)).toEqual([{ commands: ['claude-code-acp'] }]);
    expect(document.activeElement).toBe(screen.getByTestId('external-agent-remove'));

    await user.click(screen.getByTestId('external-agent-remove'));
    await screen.findByTestId('external-agents-empty');
    expect(writes(backend)).toEqual([{ commands: ['claude-code-acp'] }, { commands: [] }]);
    expect(document.activeElement).toBe(screen.getByTestId('external-agent-input'));
  });

  it('says so when a command line is already listed, without writing', async () => {
    const backend = new FakeSettingsBackend({ settings: { externalAgents: ['goose acp'] } });
    renderSettingsPage(backend);
    const user = userEvent.setup();
    const input = (await screen.findByTestId('external-agent-input')) as HTMLInputElement;
    await user.type(input, ' goose acp{Enter}');
    expect((await screen.findByTestId('external-agents-error')).textContent).toBe('“goose acp” is already in the list.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(writes(backend)).toEqual([]);
    await user.type(input, ' --verbose');
    expect(screen.queryByTestId('external-agents-error')).toBeNull();
  });

  it('shows the server’s message inline and keeps the list as it was', async () => {
    const backend = new FakeSettingsBackend({ settings: { externalAgents: ['goose acp'] } });
    backend.failNext['Settings.SetExternalAgents'] = new BridgeError('INVALID_INPUT', 'The command must not be empty.', {
      Field: 'command',
    });
    renderSettingsPage(backend);
    const user = userEvent.setup();
    const input = (await screen.findByTestId('external-agent-input')) as HTMLInputElement;
    await user.type(input, 'my-agent{Enter}');
    expect((await screen.findByTestId('external-agents-error')).textContent).toBe('The command must not be empty.');
    expect(input.value).toBe('my-agent');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(commands()).toEqual(['goose acp']);

    backend.failNext['Settings.SetExternalAgents'] = new BridgeError('STORE', 'The database is locked.');
    await user.click(screen.getByTestId('external-agent-remove'));
    expect((await screen.findByTestId('external-agents-error')).textContent).toBe('The database is locked.');
    expect(commands()).toEqual(['goose acp']);

    // The retry goes through and clears the message.
    await user.click(screen.getByTestId('external-agent-add'));
    await waitFor(() => expect(commands()).toEqual(['goose acp', 'my-agent']));
    expect(screen.queryByTestId('external-agents-error')).toBeNull();
  });

  it('follows settings.changed from another window', async () => {
    const backend = new FakeSettingsBackend();
    renderSettingsPage(backend);
    await screen.findByTestId('external-agents-empty');
    act(() => backend.emit('settings.changed', defaultSettings({ externalAgents: ['gemini --experimental-acp'] })));
    expect(commands()).toEqual(['gemini --experimental-acp']);
    expect(screen.queryByTestId('external-agent-suggestion-gemini')).toBeNull();
  });

  it('reads a server without the field as an empty list', async () => {
    const backend = new FakeSettingsBackend();
    const { externalAgents: _omitted, ...older } = backend.settings;
    backend.settings = older as typeof backend.settings;
    renderSettingsPage(backend);
    expect(await screen.findByTestId('external-agents-empty')).toBeTruthy();
  });

  it('is in Simplified Chinese', async () => {
    renderSettingsPage(new FakeSettingsBackend({ settings: { externalAgents: ['goose acp'] } }), 'zh-CN');
    const section = await screen.findByTestId('external-agents-section');
    expect(section.textContent).toContain('外部智能体');
    expect(section.textContent).toContain('外部智能体不支持对话模式');
    expect(screen.getByTestId('external-agent-add').textContent).toBe('添加');
    expect(screen.getByTestId('external-agent-remove').getAttribute('aria-label')).toBe('移除外部智能体 goose acp');
  });

  it('sets the start-up limit of external agents, 2 minutes by default, and shows a refusal under the field', async () => {
    const backend = new FakeSettingsBackend();
    renderSettingsPage(backend);
    const user = userEvent.setup();
    const field = await screen.findByTestId('start-timeout');
    expect(field.textContent).toContain('Start-up limit');
    const input = screen.getByTestId('start-timeout-input') as HTMLInputElement;
    expect(input.value).toBe('2m');
    await user.clear(input);
    await user.type(input, '1s{Enter}');
    expect((await screen.findByTestId('start-timeout-error')).textContent).toContain('between 5s and 30m');
    expect(backend.settings.externalStartTimeout).toBe('2m0s');
    await user.clear(input);
    await user.type(input, '3m');
    await user.click(screen.getByTestId('start-timeout-save'));
    await waitFor(() => expect(backend.settings.externalStartTimeout).toBe('3m0s'));
    expect(screen.queryByTestId('start-timeout-error')).toBeNull();
  });

  it('says what it saw of each agent, and warns plainly about one that never asked', async () => {
    const backend = new FakeSettingsBackend({
      settings: {
        externalAgents: ['opencode acp', 'codex-acp', 'goose acp'],
        agentFacts: [
          { command: 'opencode acp', calls: 2, asked: false, modes: [{ id: 'build', name: 'build' }, { id: 'plan', name: 'plan' }], planMode: 'plan', at: '' },
          { command: 'codex-acp', calls: 1, asked: true, modes: [{ id: 'read-only', name: 'Read Only' }, { id: 'auto', name: 'Default' }], planMode: 'read-only', at: '' },
        ],
      },
    });
    renderSettingsPage(backend);
    await screen.findByTestId('external-agent-list');
    const facts = screen.getAllByTestId('external-agent-facts');
    expect(facts.map((f) => f.getAttribute('data-asking'))).toEqual(['never', 'asked', 'unknown']);
    expect(facts[0]!.textContent).toContain('It did not ask before its last changes: in Ask and read-only modes the sandbox keeps them out');
    expect(facts[1]!.textContent).toContain('Smart · Plan runs it in its Read Only mode');
    expect(facts[2]!.textContent).toContain('Not run yet');
  });

  it('shows what an agent can reach, saves the person\'s hosts and folders, and refuses a bad host in words', async () => {
    const backend = new FakeSettingsBackend({
      settings: {
        externalAgents: ['opencode acp'],
        agentReach: [{ command: 'opencode acp', hosts: ['api.openai.com'], folders: ['~/.config/opencode'], saved: false }],
        sandbox: { kind: 'landlock', abi: 7, network: true, protect_git: true, namespaces: true },
      },
    });
    const user = userEvent.setup();
    renderSettingsPage(backend);
    const facts = await screen.findByTestId('external-agent-facts');
    expect(facts.getAttribute('data-held')).toBe('sandboxed');
    expect(facts.textContent).toContain('Can reach: api.openai.com');
    await user.click(screen.getByText('What it can reach (defaults)'));
    const hosts = screen.getByTestId('agent-reach-hosts');
    await user.clear(hosts);
    await user.type(hosts, 'localhost:11434{Enter}models dev');
    await user.click(screen.getByTestId('agent-reach-save'));
    expect((await screen.findByTestId('agent-reach-error')).textContent).toContain('“models dev” cannot be used');
    await user.clear(screen.getByTestId('agent-reach-hosts'));
    await user.type(screen.getByTestId('agent-reach-hosts'), 'localhost:11434');
    await user.click(screen.getByTestId('agent-reach-save'));
    await waitFor(() => expect(backend.settings.agentReach?.[0]?.hosts).toEqual(['localhost:11434']));
    expect((await screen.findByTestId('external-agent-facts')).textContent).toContain('Can reach: localhost:11434');
  });

  it('says plainly where no sandbox can hold an agent', async () => {
    const backend = new FakeSettingsBackend({
      settings: { externalAgents: ['opencode acp'], sandbox: { kind: 'landlock', abi: 3, network: false, protect_git: false, namespaces: false } },
    });
    renderSettingsPage(backend);
    const facts = await screen.findByTestId('external-agent-facts');
    expect(facts.getAttribute('data-held')).toBe('fullOnly');
    expect(facts.textContent).toContain('they run only with Full access');
    expect(screen.queryByTestId('agent-reach')).toBeNull();
  });
});
