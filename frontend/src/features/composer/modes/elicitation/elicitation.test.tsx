import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../../../app/App';
import { preloadViews } from '../../../../app/views';
import { FakeDesk } from '../../../../app/testing/fakeDesk';
import { createApi } from '../../../../bridge';
import { createSettingsApi } from '../../../../bridge/settingsApi';
import { session } from '../../../../test/fakeTransport';

// The views are chunks of their own, loaded once the list is shown: loaded here first, so each
// test waits for what it tests, not for a module's first transform.
beforeAll(() => preloadViews());

async function openSession() {
  const fake = new FakeDesk({ sessions: [{ ...session('s1', 'Work', '2025-01-01T08:00:00Z'), interactionMode: 'smart', executionOverride: '', permissionMode: 'ask' }] });
  render(<App api={createApi(() => fake)} settingsApi={createSettingsApi(() => fake)} />);
  await screen.findByTestId('composer');
  await waitFor(() => expect(fake.calls.some((c) => c.method === 'Sessions.Transcript')).toBe(true));
  return { fake, user: userEvent.setup() };
}

const elicitation = (id: string) => ({
  id,
  sessionId: 's1',
  kind: 'elicitation' as const,
  payload: {
    server: 'notes',
    tool: 'greet',
    message: 'Who should I greet?',
    schema: {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Your name' },
        age: { type: 'integer', title: 'Age' },
        language: { type: 'string', title: 'Language', enum: ['en', 'zh'], enumNames: ['English', 'Chinese'] },
      },
      required: ['name'],
    },
  },
});

const mode = () => screen.getByTestId('composer').dataset.mode;

describe('an MCP elicitation in the composer', () => {
  it('builds the form from the requested schema and sends what the person filled in', async () => {
    const { fake, user } = await openSession();
    act(() => void fake.ask(elicitation('e1')));
    expect(mode()).toBe('elicitation');
    expect(screen.getByTestId('composer-mode-title').textContent).toBe('notes asks');
    expect(screen.getByTestId('elicitation-message').textContent).toBe('Who should I greet?');
    expect(screen.getByTestId('elicitation-origin').textContent).toContain('greet');
    const options = [...screen.getByTestId('fn-field-language').querySelectorAll('option')].map((o) => o.textContent);
    expect(options).toEqual(['Choose…', 'English', 'Chinese']);

    await user.click(screen.getByTestId('elicitation-submit'));
    expect(mode()).toBe('elicitation');
    expect(screen.getByTestId('fn-field-name').querySelector('input')?.getAttribute('aria-invalid')).toBe('true');
    expect(fake.resolved).toEqual([]);

    await user.type(screen.getByTestId('fn-field-name').querySelector('input')!, 'Ada');
    await user.type(screen.getByTestId('fn-field-age').querySelector('input')!, '36');
    await user.selectOptions(screen.getByTestId('fn-field-language').querySelector('select')!, 'zh');
    await user.click(screen.getByTestId('elicitation-submit'));
    await waitFor(() => expect(mode()).toBe('idle'));
    expect(fake.resolved).toEqual([{ id: 'e1', action: 'accept', content: { name: 'Ada', age: 36, language: 'zh' } }]);
  });

  it('declines', async () => {
    const { fake, user } = await openSession();
    act(() => void fake.ask(elicitation('e2')));
    await user.click(screen.getByTestId('elicitation-decline'));
    await waitFor(() => expect(fake.resolved).toEqual([{ id: 'e2', action: 'decline' }]));
  });
});
