import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { defaultSettings, FakeSettingsBackend } from '../settings/testing/fakeSettingsBackend';
import { renderWithSettings } from '../settings/testing/renderWithSettings';
import Onboarding from './Onboarding';

const fresh = () =>
  new FakeSettingsBackend({
    settings: { providerReady: false, provider: { kind: '', model: '', baseUrl: '', keys: { anthropic: '', openai: '' } } },
  });

describe('Onboarding', () => {
  it('shows when no provider is ready, with three paths', async () => {
    renderWithSettings(<Onboarding onSessionReady={vi.fn()} />, fresh());
    const panel = await screen.findByTestId('onboarding');
    expect(panel.textContent).toContain('Welcome to AgentDesk');
    expect(screen.getByTestId('onboarding-path-key')).toBeTruthy();
    expect(screen.getByTestId('onboarding-path-local')).toBeTruthy();
    expect(screen.getByTestId('onboarding-path-demo')).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Welcome to AgentDesk');
  });

  it('renders nothing when a provider is ready, and hides once one becomes ready', async () => {
    const ready = new FakeSettingsBackend();
    const { container, unmount } = renderWithSettings(<Onboarding onSessionReady={vi.fn()} />, ready);
    await waitFor(() => expect(ready.called('Settings.Get')).toHaveLength(1));
    await act(async () => {});
    expect(container.innerHTML).toBe('');
    unmount();

    const backend = fresh();
    renderWithSettings(<Onboarding onSessionReady={vi.fn()} />, backend);
    await screen.findByTestId('onboarding');
    act(() => backend.emit('settings.changed', defaultSettings({ providerReady: true })));
    expect(screen.queryByTestId('onboarding')).toBeNull();
  });

  it('saves an API key to the keyring and chooses that provider', async () => {
    const backend = fresh();
    renderWithSettings(<Onboarding onSessionReady={vi.fn()} />, backend);
    const user = userEvent.setup();
    await screen.findByTestId('onboarding');
    await user.click(screen.getByTestId('onboarding-key-provider-openai'));
    const input = screen.getByTestId('onboarding-key-input') as HTMLInputElement;
    expect(input.type).toBe('password');
    expect(input.placeholder).toContain('OpenAI');
    await user.type(input, 'sk-test');
    await user.click(screen.getByTestId('onboarding-key-save'));
    await waitFor(() => expect(screen.queryByTestId('onboarding')).toBeNull());
    expect(backend.calls.filter((c) => c.method.startsWith('Settings.S')).map((c) => [c.method, c.req])).toEqual([
      ['Settings.SaveKey', { provider: 'openai', key: 'sk-test' }],
      ['Settings.SetProvider', { kind: 'openai', model: '', baseUrl: '' }],
    ]);
  });

  it('probes local servers and uses a model in one click', async () => {
    const backend = fresh();
    backend.servers = [
      { name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', ok: true, models: ['llama3.2', 'qwen2.5-coder'] },
      { name: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1', ok: false, models: [] },
    ];
    renderWithSettings(<Onboarding onSessionReady={vi.fn()} />, backend);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('onboarding-probe'));
    const servers = await screen.findAllByTestId('local-server');
    expect(servers.map((s) => s.textContent)).toEqual([
      expect.stringContaining('Running'),
      expect.stringContaining('Not running'),
    ]);
    const models = within(servers[0]!).getAllByTestId('local-model');
    expect(models.map((m) => m.textContent)).toEqual(['llama3.2', 'qwen2.5-coder']);
    expect(screen.getByTestId('onboarding-probe').textContent).toBe('Look again');

    await user.click(models[1]!);
    await waitFor(() => expect(screen.queryByTestId('onboarding')).toBeNull());
    expect(backend.called('Settings.SetProvider')[0]?.req).toEqual({
      kind: 'openai',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'qwen2.5-coder',
    });
  });

  it('says so when no local server answers', async () => {
    const backend = fresh();
    backend.servers = [
      { name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', ok: false, models: [] },
      { name: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1', ok: false, models: [] },
    ];
    renderWithSettings(<Onboarding onSessionReady={vi.fn()} />, backend);
    await userEvent.click(await screen.findByTestId('onboarding-probe'));
    expect((await screen.findByTestId('onboarding-path-local')).textContent).toContain('Nothing answered');
    expect(screen.queryByTestId('local-model')).toBeNull();
  });

  it('starts the offline demo and hands over its session', async () => {
    const backend = fresh();
    const onSessionReady = vi.fn();
    renderWithSettings(<Onboarding onSessionReady={onSessionReady} />, backend);
    await userEvent.click(await screen.findByTestId('onboarding-demo'));
    await waitFor(() => expect(onSessionReady).toHaveBeenCalledWith('demo-1'));
    expect(backend.called('Settings.StartDemo')).toHaveLength(1);
  });
});
