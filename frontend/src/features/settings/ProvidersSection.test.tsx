import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeSettingsBackend } from './testing/fakeSettingsBackend';
import { renderSettingsPage } from './testing/renderSettingsPage';

describe('Settings: the model provider', () => {
  it('offers no offline demo: the demo runs only in its own sessions', async () => {
    renderSettingsPage(new FakeSettingsBackend());
    const kind = (await screen.findByTestId('provider-kind')) as HTMLSelectElement;
    expect([...kind.options].map((o) => o.value)).toEqual(['anthropic', 'openai']);
  });

  it('reads a provider saved as "demo" by an earlier build as not set up', async () => {
    renderSettingsPage(new FakeSettingsBackend({ settings: { provider: { kind: 'demo', model: '', baseUrl: '', keys: { anthropic: '', openai: '' } } } }));
    const kind = (await screen.findByTestId('provider-kind')) as HTMLSelectElement;
    expect(kind.value).toBe('');
    expect(kind.selectedOptions[0]?.textContent).toBe('Not set up');
  });

  it('shows the provider the command line set, which runs every turn, and no way to change it', async () => {
    renderSettingsPage(
      new FakeSettingsBackend({ settings: { provider: { kind: '', model: '', baseUrl: '', keys: { anthropic: '', openai: '' } }, commandLine: { kind: 'scripted', model: '' } } }),
    );
    expect((await screen.findByTestId('provider-in-force')).textContent).toBe('Scripted');
    expect(screen.getByTestId('provider-command-line').textContent).toContain('Set on the command line');
    expect(screen.queryByTestId('provider-form')).toBeNull();
    expect(screen.queryByText('Not set up')).toBeNull();
  });

  it('names the model too, in the page language', async () => {
    renderSettingsPage(new FakeSettingsBackend({ settings: { language: 'zh-CN', commandLine: { kind: 'openai', model: 'gpt-x' } } }), 'zh-CN');
    expect((await screen.findByTestId('provider-in-force')).textContent).toContain('gpt-x');
    expect(screen.getByTestId('provider-command-line').textContent).toContain('已在命令行中设定');
  });
});
