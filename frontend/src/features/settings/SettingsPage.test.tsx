import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { defaultSettings, FakeSettingsBackend, rule } from './testing/fakeSettingsBackend';
import { renderSettingsPage } from './testing/renderSettingsPage';

const radio = (mode: string) => screen.getByTestId(`default-permission-${mode}`) as HTMLInputElement;

describe('Settings: default permission', () => {
  it('shows the stored default and writes a plain change at once', async () => {
    const backend = new FakeSettingsBackend();
    renderSettingsPage(backend);
    await waitFor(() => expect(radio('ask').checked).toBe(true));
    expect(screen.getByTestId('default-permission').textContent).toContain('every edit, file write and command asks first');

    await userEvent.click(radio('auto'));
    await waitFor(() => expect(radio('auto').checked).toBe(true));
    expect(backend.called('Settings.SetDefaultPermission')).toEqual([
      { method: 'Settings.SetDefaultPermission', req: { permissionMode: 'auto' } },
    ]);
  });

  it('asks before Full access and never writes on cancel', async () => {
    const backend = new FakeSettingsBackend();
    renderSettingsPage(backend);
    const user = userEvent.setup();
    await waitFor(() => expect(radio('ask').checked).toBe(true));

    await user.click(radio('full'));
    const confirm = await screen.findByTestId('full-access-confirm');
    expect(confirm.textContent).toContain('Make Full access the default?');
    expect(document.activeElement).toBe(confirm);
    expect(radio('full').checked).toBe(false);
    expect(radio('ask').checked).toBe(true);
    expect(backend.called('Settings.SetDefaultPermission')).toEqual([]);

    await user.click(screen.getByTestId('full-access-cancel'));
    expect(screen.queryByTestId('full-access-confirm')).toBeNull();
    expect(radio('ask').checked).toBe(true);
    expect(document.activeElement).toBe(radio('ask'));

    // Escape cancels too.
    await user.click(radio('full'));
    await screen.findByTestId('full-access-confirm');
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('full-access-confirm')).toBeNull();
    expect(backend.called('Settings.SetDefaultPermission')).toEqual([]);
    expect(backend.settings.defaultPermission).toBe('ask');

    await user.click(radio('full'));
    await user.click(await screen.findByTestId('full-access-confirm-button'));
    await waitFor(() => expect(radio('full').checked).toBe(true));
    expect(screen.queryByTestId('full-access-confirm')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(radio('full')));
    expect(backend.called('Settings.SetDefaultPermission')).toEqual([
      { method: 'Settings.SetDefaultPermission', req: { permissionMode: 'full' } },
    ]);
  });

  it('shows a failed write and keeps the stored value', async () => {
    const backend = new FakeSettingsBackend();
    backend.failNext['Settings.SetDefaultPermission'] = new BridgeError('STORE', 'The database is locked.');
    renderSettingsPage(backend);
    await waitFor(() => expect(radio('ask').checked).toBe(true));
    await userEvent.click(radio('auto'));
    expect((await screen.findByTestId('default-permission-error')).textContent).toContain('The database is locked.');
    expect(radio('ask').checked).toBe(true);
  });

  it('follows settings.changed from another window', async () => {
    const backend = new FakeSettingsBackend();
    renderSettingsPage(backend);
    await waitFor(() => expect(radio('ask').checked).toBe(true));
    act(() => backend.emit('settings.changed', defaultSettings({ defaultPermission: 'auto', theme: 'dark' })));
    expect(radio('auto').checked).toBe(true);
    expect((screen.getByTestId('theme-picker-dark') as HTMLInputElement).checked).toBe(true);
  });
});

describe('Settings: always-allow rules', () => {
  it('lists each rule with what it allows and where it came from, and revokes it', async () => {
    const backend = new FakeSettingsBackend({
      rules: [rule('r1'), rule('r2', { kind: 'edit', command: '', path: 'src/**/*.ts', source: 'settings' })],
    });
    renderSettingsPage(backend);
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getAllByTestId('rule-item')).toHaveLength(2));
    const [first, second] = screen.getAllByTestId('rule-item');
    expect(within(first!).getByTestId('rule-kind').textContent).toBe('Run commands');
    expect(within(first!).getByTestId('rule-pattern').textContent).toBe('npm test');
    expect(within(first!).getByTestId('rule-source').textContent).toContain('From an “Always allow” answer');
    expect(within(first!).getByTestId('rule-effect').textContent).toBe('Allow');
    expect(within(second!).getByTestId('rule-kind').textContent).toBe('Edit files');
    expect(within(second!).getByTestId('rule-pattern').textContent).toBe('src/**/*.ts');
    expect(within(second!).getByTestId('rule-source').textContent).toContain('Added in Settings');

    const revoke = within(first!).getByTestId('revoke-rule');
    expect(revoke.getAttribute('aria-label')).toBe('Revoke the rule: Run commands npm test');
    await user.click(revoke);
    await waitFor(() => expect(screen.getAllByTestId('rule-item')).toHaveLength(1));
    expect(backend.called('Settings.RevokeRule')).toEqual([{ method: 'Settings.RevokeRule', req: { id: 'r1' } }]);
    // Focus moves to the rule that took its place.
    expect(document.activeElement).toBe(within(screen.getByTestId('rule-item')).getByTestId('revoke-rule'));

    await user.click(within(screen.getByTestId('rule-item')).getByTestId('revoke-rule'));
    expect(await screen.findByTestId('rules-empty')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByTestId('rules-empty'));
  });

  it('shows the empty state, and refreshes when an answer elsewhere stored a rule', async () => {
    const backend = new FakeSettingsBackend();
    renderSettingsPage(backend);
    // The rules load on their own request, after the settings: on a loaded machine, past 1 s.
    expect((await screen.findByTestId('rules-empty', {}, { timeout: 5000 })).textContent).toContain('No rules yet');
    backend.rules = [rule('r9', { command: 'go test ./...' })];
    act(() => backend.emit('rule.added', { sessionId: 's1' }));
    expect((await screen.findByTestId('rule-pattern')).textContent).toBe('go test ./...');
  });
});

describe('Settings: providers, timeout and theme', () => {
  it('saves keys to the keyring, shows where a key comes from, and removes a keyring key', async () => {
    const backend = new FakeSettingsBackend({
      settings: { provider: { kind: 'anthropic', model: '', baseUrl: '', keys: { anthropic: '', openai: 'env' } } },
    });
    renderSettingsPage(backend);
    const user = userEvent.setup();
    const status = await screen.findByTestId('key-anthropic-status');
    expect(status.textContent).toBe('Not set');
    expect(screen.getByTestId('key-openai-status').textContent).toContain('OPENAI_API_KEY');
    expect(screen.queryByTestId('key-openai-remove')).toBeNull();

    const input = screen.getByTestId('key-anthropic-input') as HTMLInputElement;
    expect(input.type).toBe('password');
    await user.type(input, 'sk-ant-123{Enter}');
    await waitFor(() => expect(screen.getByTestId('key-anthropic-status').textContent).toBe('Saved in the system keyring'));
    expect(input.value).toBe('');
    expect(backend.called('Settings.SaveKey')).toEqual([
      { method: 'Settings.SaveKey', req: { provider: 'anthropic', key: 'sk-ant-123' } },
    ]);

    await user.click(screen.getByTestId('key-anthropic-remove'));
    await waitFor(() => expect(screen.getByTestId('key-anthropic-status').textContent).toBe('Not set'));
    expect(backend.called('Settings.DeleteKey')).toEqual([{ method: 'Settings.DeleteKey', req: { provider: 'anthropic' } }]);
  });

  it('sets an OpenAI-compatible provider with the Ollama preset and a model', async () => {
    const backend = new FakeSettingsBackend();
    renderSettingsPage(backend);
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByTestId('provider-kind'), 'openai');
    await user.click(screen.getByTestId('preset-ollama'));
    expect((screen.getByTestId('provider-base-url') as HTMLInputElement).value).toBe('http://127.0.0.1:11434/v1');
    await user.click(screen.getByTestId('preset-lm-studio'));
    expect((screen.getByTestId('provider-base-url') as HTMLInputElement).value).toBe('http://127.0.0.1:1234/v1');
    await user.click(screen.getByTestId('preset-ollama'));
    await user.type(screen.getByTestId('provider-model'), 'llama3.2');
    await user.click(screen.getByTestId('provider-save'));
    await waitFor(() => expect(backend.called('Settings.SetProvider')).toHaveLength(1));
    expect(backend.called('Settings.SetProvider')[0]?.req).toEqual({
      kind: 'openai',
      model: 'llama3.2',
      baseUrl: 'http://127.0.0.1:11434/v1',
    });
    await waitFor(() => expect(screen.queryByTestId('provider-revert')).toBeNull());
    expect((screen.getByTestId('provider-save') as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the timeout validation error inline from the server message', async () => {
    const backend = new FakeSettingsBackend();
    renderSettingsPage(backend);
    const user = userEvent.setup();
    const input = (await screen.findByTestId('decision-timeout-input')) as HTMLInputElement;
    expect(input.value).toBe('10m');
    await user.clear(input);
    await user.type(input, 'soon{Enter}');
    expect((await screen.findByTestId('decision-timeout-error')).textContent).toBe('“soon” is not a duration between 10s and 24h.');
    expect(input.getAttribute('aria-invalid')).toBe('true');

    await user.clear(input);
    await user.type(input, '90s');
    expect(screen.queryByTestId('decision-timeout-error')).toBeNull();
    await user.click(screen.getByTestId('decision-timeout-save'));
    await waitFor(() => expect(backend.settings.decisionTimeout).toBe('90s'));
    expect(backend.called('Settings.SetDecisionTimeout').map((c) => c.req)).toEqual([{ value: 'soon' }, { value: '90s' }]);
  });

  it('waits for the person by default; Decline after turns a timeout on and Wait for me turns it off', async () => {
    const backend = new FakeSettingsBackend({ settings: { decisionTimeout: 'never' } });
    renderSettingsPage(backend);
    const user = userEvent.setup();
    const wait = (await screen.findByTestId('decision-timeout-choice-wait')) as HTMLInputElement;
    expect(wait.checked).toBe(true);
    expect(screen.queryByTestId('decision-timeout-input')).toBeNull();

    await user.click(screen.getByTestId('decision-timeout-choice-decline'));
    const input = (await screen.findByTestId('decision-timeout-input')) as HTMLInputElement;
    expect(input.value).toBe('10m');
    expect(backend.called('Settings.SetDecisionTimeout')).toEqual([]);
    await user.click(screen.getByTestId('decision-timeout-save'));
    await waitFor(() => expect(backend.settings.decisionTimeout).toBe('10m0s'));

    await user.click(screen.getByTestId('decision-timeout-choice-wait'));
    await waitFor(() => expect(backend.settings.decisionTimeout).toBe('never'));
    expect(screen.queryByTestId('decision-timeout-input')).toBeNull();
    expect(backend.called('Settings.SetDecisionTimeout').map((c) => c.req)).toEqual([{ value: '10m' }, { value: 'never' }]);
  });

  it('saves the theme', async () => {
    const backend = new FakeSettingsBackend();
    renderSettingsPage(backend);
    await userEvent.click(await screen.findByTestId('theme-picker-dark'));
    await waitFor(() => expect(backend.settings.theme).toBe('dark'));
    expect((screen.getByTestId('theme-picker-dark') as HTMLInputElement).checked).toBe(true);
  });

  it('is in Simplified Chinese', async () => {
    renderSettingsPage(new FakeSettingsBackend(), 'zh-CN');
    expect((await screen.findByTestId('permissions-section')).textContent).toContain('新会话的默认权限');
    expect(screen.getByTestId('default-permission').textContent).toContain('完全访问');
    // The rules load on their own request, after the settings.
    await waitFor(() => expect(screen.getByTestId('rules-section').textContent).toContain('暂无规则'));
  });
});
