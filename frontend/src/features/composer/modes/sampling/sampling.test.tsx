import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../../../app/App';
import { preloadViews } from '../../../../app/views';
import { FakeDesk } from '../../../../app/testing/fakeDesk';
import { createApi } from '../../../../bridge';
import { createSettingsApi } from '../../../../bridge/settingsApi';
import { catalog } from '../../../../i18n/locales';
import { makeT } from '../../../../i18n/translate';
import { session } from '../../../../test/fakeTransport';
import { notificationText } from '../../../notify/useDecisionNotifications';

beforeAll(() => preloadViews());

async function openSession(language = 'en') {
  const fake = new FakeDesk({
    language,
    sessions: [{ ...session('s1', 'Work', '2025-01-01T08:00:00Z'), interactionMode: 'smart', executionOverride: '', permissionMode: 'full' }],
  });
  render(<App api={createApi(() => fake)} settingsApi={createSettingsApi(() => fake)} />);
  await screen.findByTestId('composer');
  await waitFor(() => expect(fake.calls.some((c) => c.method === 'Sessions.Transcript')).toBe(true));
  return { fake, user: userEvent.setup() };
}

const LONG = `${'A long question. '.repeat(400)}The end.`;

const sampling = (id: string, patch: Record<string, unknown> = {}) => ({
  id,
  sessionId: 's1',
  kind: 'sampling' as const,
  payload: {
    server: 'everything',
    tool: 'trigger-sampling-request',
    model: 'claude-sonnet-4-5',
    systemPrompt: 'You are a <b>helpful</b> assistant.',
    messages: [
      { role: 'user', text: 'Say hi' },
      { role: 'assistant', text: 'Hi?' },
      { role: 'user', text: LONG },
    ],
    maxTokens: 50,
    ...patch,
  },
});

const mode = () => screen.getByTestId('composer').dataset.mode;

describe('an MCP sampling request in the composer', () => {
  it('shows the model, the limit, the system prompt and every message in full, as plain text', async () => {
    const { fake } = await openSession();
    act(() => void fake.ask(sampling('m1')));
    expect(mode()).toBe('sampling');
    expect(screen.getByTestId('composer-mode-title').textContent).toBe('everything asks to use your model');
    expect(screen.getByTestId('sampling-lead').textContent).toContain('trigger-sampling-request');
    expect(screen.getByTestId('sampling-model').textContent).toBe('Model: claude-sonnet-4-5');
    expect(screen.getByTestId('sampling-max-tokens').textContent).toContain('at most 50 tokens');
    const parts = screen.getAllByTestId('sampling-part');
    expect(parts.map((p) => [p.dataset.role, p.querySelector('h3')?.textContent])).toEqual([
      ['system', 'System prompt'],
      ['user', 'User'],
      ['assistant', 'Assistant'],
      ['user', 'User'],
    ]);
    expect(parts[0]!.querySelector('p')!.textContent).toBe('You are a <b>helpful</b> assistant.');
    expect(screen.getByTestId('sampling-messages').querySelector('b')).toBeNull();
    expect(parts[3]!.querySelector('p')!.textContent).toBe(LONG);
    expect(screen.getByTestId('sampling-messages').tabIndex).toBe(0);
  });

  it('leaves out an empty system prompt, an unnamed tool and a missing limit', async () => {
    const { fake } = await openSession();
    act(() => void fake.ask(sampling('m2', { tool: '', systemPrompt: '', maxTokens: 0, messages: [{ role: 'user', text: 'Hello' }] })));
    expect(screen.getAllByTestId('sampling-part').map((p) => p.dataset.role)).toEqual(['user']);
    expect(screen.getByTestId('sampling-lead').textContent).toBe('The MCP server everything asks your model to answer the messages below.');
    expect(screen.queryByTestId('sampling-max-tokens')).toBeNull();
  });

  it('allows once with Enter only on the focused Allow once button', async () => {
    const { fake, user } = await openSession();
    act(() => void fake.ask(sampling('m3')));
    const once = screen.getByTestId('sampling-allow-once');
    // Nothing takes the focus by itself: a stray Enter must not hand the model to the server.
    expect(document.activeElement).not.toBe(once);
    await user.keyboard('{Enter}');
    expect(fake.resolved).toEqual([]);
    once.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(fake.resolved).toEqual([{ id: 'm3', choice: 'allow_once' }]));
    await waitFor(() => expect(mode()).toBe('idle'));
  });

  it('allows the server for the rest of the session', async () => {
    const { fake, user } = await openSession();
    act(() => void fake.ask(sampling('m4')));
    expect(screen.getByTestId('sampling-allow-server').textContent).toBe('Allow for this server');
    await user.click(screen.getByTestId('sampling-allow-server'));
    await waitFor(() => expect(fake.resolved).toEqual([{ id: 'm4', choice: 'allow_server' }]));
  });

  it('denies with the reason typed, also by Enter in the reason field', async () => {
    const { fake, user } = await openSession();
    act(() => void fake.ask(sampling('m5')));
    expect(screen.getByTestId('sampling-deny').textContent).toBe('Deny');
    await user.type(screen.getByTestId('sampling-reason'), '  Not with my account  ');
    expect(screen.getByTestId('sampling-deny').textContent).toBe('Deny with reason');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(fake.resolved).toEqual([{ id: 'm5', choice: 'deny', reason: 'Not with my account' }]));

    act(() => void fake.ask(sampling('m6')));
    await waitFor(() => expect(mode()).toBe('sampling'));
    await user.click(screen.getByTestId('sampling-deny'));
    await waitFor(() => expect(fake.resolved[1]).toEqual({ id: 'm6', choice: 'deny' }));
  });

  it('speaks Chinese', async () => {
    const { fake } = await openSession('zh-CN');
    act(() => void fake.ask(sampling('m7')));
    await waitFor(() => expect(screen.getByTestId('composer-mode-title').textContent).toBe('everything 请求使用你的模型'));
    expect(screen.getByTestId('sampling-allow-server').textContent).toBe('允许此服务器');
    expect(screen.getAllByTestId('sampling-part')[1]!.querySelector('h3')?.textContent).toBe('用户');
  });

  it('is named in a notification by its last message', () => {
    const t = makeT(catalog, 'en');
    const text = notificationText({ id: 'm8', sessionId: 's1', kind: 'sampling', payload: sampling('m8', { messages: [{ role: 'user', text: 'Say hi' }] }).payload }, t);
    expect(text).toEqual({ title: 'An MCP server asks to use your model', body: 'Say hi' });
  });
});
