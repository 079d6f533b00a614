import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeSettingsBackend, rule } from './testing/fakeSettingsBackend';
import { renderSettingsPage } from './testing/renderSettingsPage';

describe('Settings: shell commands', () => {
  it('says what confines commands, once, for Landlock and for no sandbox', async () => {
    renderSettingsPage(new FakeSettingsBackend());
    const line = await screen.findByTestId('sandbox-status-text');
    expect(line.dataset.kind).toBe('landlock');
    expect(line.textContent).toContain('Landlock ABI 7');
    expect(line.textContent).toContain('cannot reach the network');
  });

  it('with namespaces, lists what commands see and what this machine leaves uncovered', async () => {
    const sandbox = {
      kind: 'landlock', abi: 7, network: true, protect_git: true, namespaces: true, uncovered: ['scoping'],
      view: { read_only: ['/usr', '/root/.pyenv'], read_write: ['/root/.npm'] },
    };
    renderSettingsPage(new FakeSettingsBackend({ settings: { sandbox } }));
    const line = await screen.findByTestId('sandbox-status-text');
    expect(line.textContent).toContain('see only the workspace, the toolchain and the build caches');
    expect(screen.getByTestId('sandbox-caches').textContent).toContain('/root/.npm');
    expect(screen.getByTestId('sandbox-toolchain').textContent).toContain('/usr, /root/.pyenv');
    expect(screen.getByTestId('sandbox-uncovered').textContent).toContain('abstract Unix sockets and signals are not scoped');
  });

  it('warns that every shell command asks where the kernel has no sandbox', async () => {
    renderSettingsPage(new FakeSettingsBackend({ settings: { sandbox: { kind: 'none', abi: 0, network: false, protect_git: false } } }), 'zh-CN');
    const line = await screen.findByTestId('sandbox-status-text');
    expect(line.dataset.kind).toBe('none');
    expect(line.className).toContain('is-caution');
    expect(line.textContent).toContain('每条 Shell 命令都会先询问');
  });

  it('saves the passed-through variables and shows the server refusing a bad name', async () => {
    const backend = new FakeSettingsBackend();
    renderSettingsPage(backend);
    const user = userEvent.setup();
    const input = await screen.findByTestId('env-passthrough-input');
    await user.type(input, 'NPM_TOKEN, GH_TOKEN');
    await user.click(screen.getByTestId('env-passthrough-save'));
    await waitFor(() => expect(backend.settings.shellEnvPassthrough).toEqual(['NPM_TOKEN', 'GH_TOKEN']));
    expect(backend.called('Settings.SetShellEnvPassthrough')).toEqual([
      { method: 'Settings.SetShellEnvPassthrough', req: { names: ['NPM_TOKEN', 'GH_TOKEN'] } },
    ]);
    expect(screen.getByTestId('env-passthrough-save')).toHaveProperty('disabled', true);

    await user.clear(input);
    await user.type(input, 'not-a-name');
    await user.click(screen.getByTestId('env-passthrough-save'));
    expect((await screen.findByTestId('env-passthrough-error')).textContent).toContain('not-a-name');
    expect(backend.settings.shellEnvPassthrough).toEqual(['NPM_TOKEN', 'GH_TOKEN']);
  });

  it('shows a prefix rule as its command followed by "…", an exact one as written', async () => {
    renderSettingsPage(new FakeSettingsBackend({ rules: [rule('r1', { command: 'npm test', scope: 'prefix' }), rule('r2', { command: 'rm -rf build' })] }));
    await waitFor(() => expect(screen.getAllByTestId('rule-pattern')).toHaveLength(2));
    expect(screen.getAllByTestId('rule-pattern').map((p) => p.textContent)).toEqual(['npm test …', 'rm -rf build']);
  });
});
