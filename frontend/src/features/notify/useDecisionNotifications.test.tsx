import { act } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AskedDecision } from '../../bridge/settingsApi';
import { FakeSettingsBackend } from '../settings/testing/fakeSettingsBackend';
import { renderWithSettings } from '../settings/testing/renderWithSettings';
import type { NotifyEnv, WebNotification, WebNotificationApi } from './decisionNotifier';
import { useDecisionNotifications } from './useDecisionNotifications';

const approval: AskedDecision = {
  id: 'd1',
  sessionId: 's1',
  kind: 'approval',
  payload: { tool: 'bash', summary: 'npm install left-pad' },
};

function fakeNotificationApi(permission: NotificationPermission, answer: NotificationPermission = permission) {
  const shown: { title: string; options?: NotificationOptions; n: WebNotification & { closed: boolean } }[] = [];
  class FakeNotification implements WebNotification {
    static permission = permission;
    static requestPermission = vi.fn(async () => {
      FakeNotification.permission = answer;
      return answer;
    });
    onclick: WebNotification['onclick'] = null;
    closed = false;
    constructor(title: string, options?: NotificationOptions) {
      shown.push({ title, options, n: this });
    }
    close() {
      this.closed = true;
    }
  }
  return { N: FakeNotification as unknown as WebNotificationApi & { requestPermission: ReturnType<typeof vi.fn> }, shown };
}

function makeEnv(away: boolean, N?: WebNotificationApi) {
  const focusListeners = new Set<() => void>();
  const env: NotifyEnv & { away: boolean; opened: string[]; focus(): void } = {
    away,
    opened: [],
    isAway: () => env.away,
    Notification: N,
    openSession: (id) => env.opened.push(id),
    onFocus: (cb) => {
      focusListeners.add(cb);
      return () => focusListeners.delete(cb);
    },
    focus() {
      env.away = false;
      focusListeners.forEach((cb) => cb());
    },
  };
  return env;
}

function Harness({ env }: { env: NotifyEnv }) {
  useDecisionNotifications(env);
  return null;
}

const flush = () => act(async () => {
  await new Promise((r) => setTimeout(r, 0));
});

afterEach(() => vi.restoreAllMocks());

describe('useDecisionNotifications', () => {
  it('in the desktop window asks the Go side to notify, only when the window is unfocused', async () => {
    const backend = new FakeSettingsBackend({ transport: 'desktop' });
    const { N, shown } = fakeNotificationApi('granted');
    const env = makeEnv(false, N);
    renderWithSettings(<Harness env={env} />, backend);

    act(() => backend.emit('decision.asked', approval));
    await flush();
    expect(backend.called('System.NotifyDecision')).toEqual([]);

    env.away = true;
    act(() => backend.emit('decision.asked', { ...approval, id: 'd2' }));
    await flush();
    expect(backend.called('System.NotifyDecision')).toEqual([{ method: 'System.NotifyDecision', req: { id: 'd2' } }]);
    expect(shown).toEqual([]);
  });

  it('in a browser uses the Notification API when unfocused, and closes it when answered', async () => {
    const backend = new FakeSettingsBackend({ transport: 'browser' });
    const { N, shown } = fakeNotificationApi('granted');
    const env = makeEnv(false, N);
    renderWithSettings(<Harness env={env} />, backend);

    act(() => backend.emit('decision.asked', approval));
    await flush();
    expect(shown).toEqual([]);

    env.away = true;
    act(() => backend.emit('decision.asked', approval));
    await flush();
    expect(shown).toHaveLength(1);
    expect(shown[0]?.title).toBe('AgentDesk needs your approval');
    expect(shown[0]?.options).toEqual({ body: 'npm install left-pad', tag: 'd1' });
    expect(backend.called('System.NotifyDecision')).toEqual([]);

    shown[0]!.n.onclick?.call(null, new Event('click'));
    expect(env.opened).toEqual(['s1']);
    expect(shown[0]?.n.closed).toBe(true);

    act(() => backend.emit('decision.asked', { id: 'd3', sessionId: 's1', kind: 'question', payload: { question: 'Which branch?' } }));
    await flush();
    expect(shown[1]?.title).toBe('The agent has a question');
    expect(shown[1]?.options?.body).toBe('Which branch?');
    act(() => backend.emit('decision.resolved', { id: 'd3', sessionId: 's1' }));
    expect(shown[1]?.n.closed).toBe(true);
  });

  it('asks for permission on first need, and stays quiet when it is refused', async () => {
    const backend = new FakeSettingsBackend();
    const { N, shown } = fakeNotificationApi('default', 'denied');
    const env = makeEnv(true, N);
    renderWithSettings(<Harness env={env} />, backend);

    act(() => backend.emit('decision.asked', approval));
    await flush();
    act(() => backend.emit('decision.asked', { ...approval, id: 'd2' }));
    await flush();
    expect(N.requestPermission).toHaveBeenCalledTimes(1);
    expect(shown).toEqual([]);
  });

  it('notifies after permission is granted, unless the decision was answered meanwhile', async () => {
    const backend = new FakeSettingsBackend();
    const { N, shown } = fakeNotificationApi('default', 'granted');
    const env = makeEnv(true, N);
    renderWithSettings(<Harness env={env} />, backend);

    act(() => {
      backend.emit('decision.asked', approval);
      backend.emit('decision.resolved', { id: 'd1', sessionId: 's1' });
    });
    await flush();
    expect(shown).toEqual([]);

    act(() => backend.emit('decision.asked', { ...approval, id: 'd2' }));
    await flush();
    expect(shown.map((s) => s.options?.tag)).toEqual(['d2']);
    expect(N.requestPermission).toHaveBeenCalledTimes(1);

    env.focus();
    expect(shown[0]?.n.closed).toBe(true);
  });

  it('does nothing where there is no Notification API', async () => {
    const backend = new FakeSettingsBackend();
    const env = makeEnv(true, undefined);
    renderWithSettings(<Harness env={env} />, backend);
    act(() => backend.emit('decision.asked', approval));
    await flush();
    expect(backend.called('System.NotifyDecision')).toEqual([]);
  });
});
