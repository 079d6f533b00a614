import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { McpServer } from '../../bridge/settingsApi';
import { splitCommandLine } from './McpSection';
import { FakeSettingsBackend } from './testing/fakeSettingsBackend';
import { renderSettingsPage } from './testing/renderSettingsPage';

function server(patch: Partial<McpServer> = {}): McpServer {
  return {
    id: 'srv1',
    name: 'notes',
    transport: 'stdio',
    command: '/usr/bin/notes-server',
    args: ['--stdio'],
    enabled: true,
    source: 'settings',
    status: { state: 'running' },
    tools: [
      { name: 'echo', description: 'Echoes the text back, louder if asked.', readOnly: true, state: 'changed', rule: 'mcp:notes/echo', seen: '{"v":2}',
        diff: [{ op: ' ', text: '{' }, { op: '-', text: '  "description": "Echoes the text back."' }, { op: '+', text: '  "description": "Echoes the text back, louder if asked."' }] },
      { name: 'write_note', description: 'Writes a note.', readOnly: false, state: 'approved', rule: 'mcp:notes/write_note' },
    ],
    ...patch,
  };
}

describe('Settings: MCP servers', () => {
  it('lists servers with their tools; a changed tool shows its diff and is approved as reviewed', async () => {
    const backend = new FakeSettingsBackend();
    backend.mcpServers = [server()];
    renderSettingsPage(backend);
    const user = userEvent.setup();
    const item = await screen.findByTestId('mcp-server');
    expect(item.textContent).toContain('/usr/bin/notes-server --stdio');
    expect(item.textContent).toContain('every workspace');
    const echo = within(item).getAllByTestId('mcp-tool').find((x) => x.dataset.tool === 'echo')!;
    expect(echo.dataset.state).toBe('changed');
    expect(within(echo).getByTestId('mcp-tool-diff').textContent).toContain('+   "description": "Echoes the text back, louder if asked."');
    await user.click(within(echo).getByTestId('mcp-tool-approve'));
    await waitFor(() => expect(backend.called('MCP.Approve')).toEqual([{ method: 'MCP.Approve', req: { id: 'srv1', tool: 'echo', seen: '{"v":2}' } }]));
    await waitFor(() => expect(screen.queryByTestId('mcp-tool-diff')).toBeNull());
  });

  it('imports a workspace .mcp.json only after the review is confirmed', async () => {
    const backend = new FakeSettingsBackend();
    backend.mcpImport = [
      { config: { name: 'fs', transport: 'stdio', command: 'fs-server', args: ['.'] } },
      { config: { name: 'old', transport: 'stdio' }, problem: 'transport sse is not supported (stdio and http are)' },
    ];
    renderSettingsPage(backend);
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('mcp-import-workspace'), '/home/ada/project');
    await user.click(screen.getByTestId('mcp-import-review'));
    const items = await screen.findAllByTestId('mcp-import-item');
    expect(items).toHaveLength(2);
    expect(items[1]!.textContent).toContain('sse is not supported');
    expect(backend.called('MCP.Import')).toEqual([]);
    await user.click(screen.getByTestId('mcp-import-confirm'));
    await waitFor(() =>
      expect(backend.called('MCP.Import')).toEqual([{ method: 'MCP.Import', req: { workspace: '/home/ada/project', names: ['fs'] } }]),
    );
  });

  it('adds an MCP rule that the rules list shows', async () => {
    const backend = new FakeSettingsBackend();
    renderSettingsPage(backend);
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('mcp-rule-input'), 'mcp:notes/*');
    await user.click(screen.getByTestId('mcp-rule-deny'));
    const pattern = await screen.findByTestId('rule-pattern');
    expect(pattern.textContent).toBe('mcp:notes/*');
    expect(screen.getByTestId('rule-kind').textContent).toBe('MCP tools');
  });

  it('adding a server lists its tools for review; enabling it pins the tools as shown', async () => {
    const backend = new FakeSettingsBackend();
    backend.mcpListed = [
      { name: 'echo', description: 'Echoes the text back.', readOnly: true, seen: '{"e":1}' },
      { name: 'write_note', description: 'Writes a note.', readOnly: false, seen: '{"w":1}' },
    ];
    renderSettingsPage(backend);
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('mcp-add-name'), 'notes');
    await user.type(screen.getByTestId('mcp-add-target'), '/usr/bin/notes-server --stdio');
    expect(screen.getByTestId('mcp-add-submit').textContent).toBe('Add and review its tools');
    await user.click(screen.getByTestId('mcp-add-submit'));
    const item = await screen.findByTestId('mcp-server');
    expect(item.dataset.enabled).toBe('false');
    const tools = within(item).getAllByTestId('mcp-tool');
    expect(tools.map((x) => x.dataset.state)).toEqual(['new', 'new']);
    expect(item.textContent).toContain('Writes a note.');
    expect(item.textContent).toContain('listed for your review');
    expect(within(item).queryByTestId('mcp-tool-approve')).toBeNull();
    expect(within(item).getByTestId('mcp-review-help').textContent).toContain('Review the 2 tools');
    expect(backend.called('MCP.Enable')).toEqual([]);
    await user.click(within(item).getByTestId('mcp-enable'));
    await waitFor(() =>
      expect(backend.called('MCP.Enable')).toEqual([{ method: 'MCP.Enable', req: { id: 'srv1', tools: { echo: '{"e":1}', write_note: '{"w":1}' } } }]),
    );
    await waitFor(() => expect(screen.getByTestId('mcp-server').dataset.enabled).toBe('true'));
  });

  it("fixes a mistyped command in place, and shows a server's failure as a localized typed error", async () => {
    const backend = new FakeSettingsBackend();
    backend.mcpServers = [
      server({ enabled: false, command: 'npxx', args: ['-y', 'notes'], tools: [],
        status: { state: 'failed', problem: 'exec: "npxx": executable file not found in $PATH', code: 'MCP_COMMAND_NOT_FOUND', args: { Server: 'notes', Command: 'npxx' } } }),
    ];
    renderSettingsPage(backend);
    const user = userEvent.setup();
    const problem = await screen.findByTestId('mcp-server-problem');
    expect(problem.getAttribute('role')).toBe('alert');
    expect(problem.textContent).toContain('npxx');
    expect(problem.textContent).not.toContain('exec:');
    await user.click(screen.getByTestId('mcp-edit'));
    const input = screen.getByTestId('mcp-edit-target') as HTMLInputElement;
    expect(input.value).toBe('npxx -y notes');
    await user.clear(input);
    await user.type(input, 'npx -y notes');
    await user.click(screen.getByTestId('mcp-edit-save'));
    await waitFor(() =>
      expect(backend.called('MCP.Edit')).toEqual([
        { method: 'MCP.Edit', req: { id: 'srv1', config: expect.objectContaining({ name: 'notes', transport: 'stdio', command: 'npx', args: ['-y', 'notes'] }) } },
      ]),
    );
    await waitFor(() => expect(screen.getByTestId('mcp-server').textContent).toContain('npx -y notes'));
    expect(screen.queryByTestId('mcp-edit-form')).toBeNull();
  });

  it('splits a command line into the program and its arguments', () => {
    expect(splitCommandLine('  npx -y  @scope/server  ')).toEqual({ command: 'npx', args: ['-y', '@scope/server'] });
  });
});
