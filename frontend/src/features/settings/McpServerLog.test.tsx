import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { McpServer } from '../../bridge/settingsApi';
import { FakeSettingsBackend } from './testing/fakeSettingsBackend';
import { renderSettingsPage } from './testing/renderSettingsPage';

const server: McpServer = {
  id: 'srv1',
  name: 'everything',
  transport: 'stdio',
  command: 'node',
  args: ['index.js', 'stdio'],
  enabled: true,
  source: 'settings',
  status: { state: 'running' },
  tools: [],
};

const PATH = '/home/ada/.local/share/agentdesk/mcp/srv1.log';

async function openLog(backend: FakeSettingsBackend, lang: 'en' | 'zh-CN' = 'en') {
  backend.mcpServers = [server];
  renderSettingsPage(backend, lang);
  const user = userEvent.setup();
  const item = await screen.findByTestId('mcp-server');
  const button = within(item).getByTestId('mcp-log-open');
  expect(button.getAttribute('aria-expanded')).toBe('false');
  await user.click(button);
  return { user, item, button };
}

describe("Settings: an MCP server's log", () => {
  it('opens under the server with its file path and text; Refresh reads it again, Close gives the focus back', async () => {
    const backend = new FakeSettingsBackend();
    backend.mcpLogs.srv1 = { path: PATH, text: 'Starting server…\n<b>ready</b>\n', truncated: false };
    const { user, item, button } = await openLog(backend);
    const panel = await within(item).findByTestId('mcp-log');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.getAttribute('aria-controls')).toBe(panel.id);
    expect(panel.getAttribute('aria-label')).toBe('Log of everything');
    expect((await within(panel).findByTestId('mcp-log-path') as HTMLInputElement).value).toBe(PATH);
    expect(within(panel).getByTestId('mcp-log-text').textContent).toBe('Starting server…\n<b>ready</b>\n');
    expect(within(panel).queryByTestId('mcp-log-truncated')).toBeNull();
    expect(backend.called('MCP.Log')).toEqual([{ method: 'MCP.Log', req: { id: 'srv1' } }]);

    backend.mcpLogs.srv1 = { path: PATH, text: 'Starting server…\n<b>ready</b>\ncalled echo\n', truncated: true };
    await user.click(within(panel).getByTestId('mcp-log-refresh'));
    await waitFor(() => expect(within(panel).getByTestId('mcp-log-text').textContent).toContain('called echo'));
    expect(within(panel).getByTestId('mcp-log-truncated').textContent).toContain('last 64 KB');
    expect(backend.called('MCP.Log')).toHaveLength(2);

    await user.click(within(panel).getByTestId('mcp-log-close'));
    expect(within(item).queryByTestId('mcp-log')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('says when nothing is logged yet, in Chinese too', async () => {
    const backend = new FakeSettingsBackend();
    backend.mcpLogs.srv1 = { path: PATH, text: '', truncated: false };
    const { item } = await openLog(backend, 'zh-CN');
    expect((await within(item).findByTestId('mcp-log-empty')).textContent).toBe('尚无日志');
    expect(within(item).queryByTestId('mcp-log-text')).toBeNull();
    expect(within(item).getByTestId('mcp-log-open').textContent).toBe('服务器日志');
  });

  it('shows why the log could not be read', async () => {
    const backend = new FakeSettingsBackend();
    const { item } = await openLog(backend);
    expect((await within(item).findByTestId('mcp-log-error')).textContent).toBe('Nothing with that id.');
    expect(within(item).queryByTestId('mcp-log-path')).toBeNull();
  });
});
