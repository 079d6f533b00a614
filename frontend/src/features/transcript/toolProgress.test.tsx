import { act, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../app/App';
import { FakeDesk } from '../../app/testing/fakeDesk';
import { preloadViews } from '../../app/views';
import { createApi } from '../../bridge';
import { createSettingsApi } from '../../bridge/settingsApi';
import { session } from '../../test/fakeTransport';

beforeAll(() => preloadViews());

const ids = { sessionId: 's1', turnId: 't1', callId: 'c1' };

async function runningMcpCall() {
  const fake = new FakeDesk({ sessions: [{ ...session('s1', 'Work', '2025-01-01T08:00:00Z'), interactionMode: 'smart', executionOverride: '', permissionMode: 'full' }] });
  render(<App api={createApi(() => fake)} settingsApi={createSettingsApi(() => fake)} />);
  await screen.findByTestId('composer');
  await waitFor(() => expect(fake.calls.some((c) => c.method === 'Sessions.Transcript')).toBe(true));
  act(() => {
    fake.emit('turn.started', { sessionId: 's1', turnId: 't1', prompt: 'Work slowly', executionMode: 'execute', reasonKey: 'route.reason.execute' });
    fake.emit('tool.call', { ...ids, name: 'mcp__everything__trigger-long-running-operation', input: { duration: 2, steps: 4 }, verdict: 'allow', layer: 'mode' });
  });
  const card = await screen.findByTestId('tool-card');
  return { fake, card };
}

/** Emits and waits past the frame the stream is drawn in, so a check for "nothing changed" means it. */
const progress = async (fake: FakeDesk, e: Record<string, unknown>) => {
  act(() => fake.emit('tool.progress', { ...ids, ...e }));
  await act(() => new Promise((r) => setTimeout(r, 60)));
};

describe("a running MCP tool's progress on its card", () => {
  it('fills a bar when the total is known, keeps the latest message, and leaves when the call ends', async () => {
    const { fake, card } = await runningMcpCall();
    expect(within(card).queryByTestId('tool-progress')).toBeNull();

    await progress(fake, { progress: 1, total: 4, message: 'Step 1 of 4' });
    const bar = await within(card).findByRole('progressbar', { name: 'Progress of trigger-long-running-operation · everything (MCP)' });
    expect(bar.getAttribute('aria-valuenow')).toBe('1');
    expect(bar.getAttribute('aria-valuemax')).toBe('4');
    expect(within(card).getByTestId('tool-progress-count').textContent).toBe('1 of 4');
    expect(within(card).getByTestId('tool-progress-message').textContent).toBe('Step 1 of 4');

    // A progress without a message keeps the last one.
    await progress(fake, { progress: 3, total: 4 });
    await waitFor(() => expect(within(card).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('3'));
    expect(within(card).getByTestId('tool-progress-count').textContent).toBe('3 of 4');
    expect(within(card).getByTestId('tool-progress-message').textContent).toBe('Step 1 of 4');
    expect((card.querySelector('.tool-progress__fill') as HTMLElement).style.width).toBe('75%');

    // Another window's call, or another call, leaves this card alone.
    await progress(fake, { sessionId: 'other', progress: 4, total: 4 });
    await progress(fake, { callId: 'c2', progress: 4, total: 4 });
    expect(within(card).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('3');

    act(() => fake.emit('tool.done', { ...ids, name: 'mcp__everything__trigger-long-running-operation', output: 'Long running operation completed.', isError: false }));
    await waitFor(() => expect(within(card).queryByTestId('tool-progress')).toBeNull());
    // Progress that arrives after the result is stale.
    await progress(fake, { progress: 4, total: 4 });
    expect(within(card).queryByTestId('tool-progress')).toBeNull();
  });

  it('shows a busy bar with the count when the server knows no total', async () => {
    const { fake, card } = await runningMcpCall();
    await progress(fake, { progress: 7, message: 'Indexing' });
    const bar = await within(card).findByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBeNull();
    expect(bar.getAttribute('aria-valuetext')).toBe('7 done so far');
    expect(within(card).getByTestId('tool-progress').dataset.determinate).toBe('false');
    expect(within(card).getByTestId('tool-progress-count').textContent).toBe('7 done so far');

    act(() => fake.emit('turn.ended', { sessionId: 's1', turnId: 't1', status: 'cancelled' }));
    await waitFor(() => expect(within(card).queryByTestId('tool-progress')).toBeNull());
  });
});
