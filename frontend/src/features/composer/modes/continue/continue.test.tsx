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
    sessions: [{ ...session('s1', 'Work', '2025-01-01T08:00:00Z'), interactionMode: 'smart', executionOverride: '', permissionMode: 'ask' }],
  });
  render(<App api={createApi(() => fake)} settingsApi={createSettingsApi(() => fake)} />);
  await screen.findByTestId('composer');
  await waitFor(() => expect(fake.calls.some((c) => c.method === 'Sessions.Transcript')).toBe(true));
  return { fake, user: userEvent.setup() };
}

const paused = (id: string) => ({ id, sessionId: 's1', kind: 'continue' as const, payload: { steps: 200, limit: 200 } });
const mode = () => screen.getByTestId('composer').dataset.mode;

describe('a turn paused at its step limit', () => {
  it('says how far it went and what Continue allows, and Continue answers continue', async () => {
    const { fake, user } = await openSession();
    act(() => void fake.ask(paused('c1')));
    expect(mode()).toBe('continue');
    expect(screen.getByTestId('composer-mode-title').textContent).toBe('Paused after 200 model requests');
    expect(screen.getByTestId('continue-hint').textContent).toContain('another 200 model requests');
    await user.click(screen.getByTestId('continue-continue'));
    await waitFor(() => expect(fake.resolved).toEqual([{ id: 'c1', choice: 'continue' }]));
  });

  it('Stop here answers stop', async () => {
    const { fake, user } = await openSession();
    act(() => void fake.ask(paused('c2')));
    await user.click(screen.getByTestId('continue-stop'));
    await waitFor(() => expect(fake.resolved).toEqual([{ id: 'c2', choice: 'stop' }]));
  });

  it('is said in Chinese too, and the notification names the pause', async () => {
    const t = makeT(catalog, 'zh-CN');
    expect(t('composer.continue.title', { Count: 200 })).toBe('已在 200 次模型请求后暂停');
    expect(notificationText(paused('c3'), makeT(catalog, 'en')).body).toBe('Paused after 200 model requests');
  });
});
