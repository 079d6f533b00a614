import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Transcript as TranscriptData } from '../../bridge';
import { I18nProvider } from '../../i18n/I18nProvider';
import { Transcript } from './Transcript';
import { normalizeTranscript, transcriptReducer } from './transcriptReducer';
import * as verdict from './verdict';

// Every tool card computes its summary line when it renders: counting the calls counts the renders.
vi.mock('./verdict', async (importOriginal) => {
  const real = await importOriginal<typeof import('./verdict')>();
  return { ...real, callSummary: vi.fn(real.callSummary) };
});

const tools = ['c1', 'c2', 'c3'].map((callId, i) => ({
  type: 'tool',
  turnId: 't1',
  callId,
  name: 'bash',
  input: { command: `ls ${i}` },
  output: `out ${i}`,
  verdict: 'allow',
  seq: 11 + i,
}));

const running = (): TranscriptData =>
  normalizeTranscript({
    sessionId: 's1',
    running: 't1',
    turns: [{ id: 't1', prompt: 'Go', executionMode: 'execute', reasonKey: '', status: 'running', error: '', temporary: false, createdAt: '2025-01-01T10:00:00Z' }],
    items: [{ type: 'user', turnId: 't1', text: 'Go', steer: false, seq: 10 }, ...tools, { type: 'assistant', turnId: 't1', text: 'Wor', seq: 14 }] as never,
    first: 10,
    last: 14,
  });

const view = (t: TranscriptData) => (
  <I18nProvider lang="en">
    <Transcript transcript={t} onStop={() => {}} onContinue={() => {}} />
  </I18nProvider>
);

describe('the virtualized transcript', () => {
  it('re-renders only the last item when a delta arrives; the other rows stay the same nodes', async () => {
    let t = running();
    const { rerender } = render(view(t));
    const cards = screen.getAllByTestId('tool-card');
    expect(cards).toHaveLength(3);
    const rows = screen.getAllByTestId('transcript-row');
    const summaries = vi.mocked(verdict.callSummary);
    summaries.mockClear();

    for (const text of ['ki', 'ng', ' on it.']) {
      t = transcriptReducer(t, { type: 'turn.delta', e: { sessionId: 's1', turnId: 't1', text } });
      rerender(view(t));
    }
    await waitFor(() => expect(screen.getByTestId('msg-assistant').textContent?.trim()).toBe('Working on it.'));
    expect(summaries).not.toHaveBeenCalled();
    screen.getAllByTestId('tool-card').forEach((card, i) => expect(card).toBe(cards[i]));
    screen.getAllByTestId('transcript-row').forEach((row, i) => expect(row).toBe(rows[i]));
    expect(screen.getAllByTestId('transcript-row').at(-1)?.dataset.last).toBe('true');
  });

  it('changes one card only when its own tool result arrives', () => {
    let t = running();
    const { rerender } = render(view(t));
    const summaries = vi.mocked(verdict.callSummary);
    summaries.mockClear();
    t = transcriptReducer(t, { type: 'tool.result', e: { sessionId: 's1', turnId: 't1', callId: 'c2', name: 'bash', output: 'changed', isError: false } });
    act(() => rerender(view(t)));
    expect(summaries).toHaveBeenCalledTimes(1);
    expect(screen.getAllByTestId('tool-card')[1]?.textContent).toContain('changed');
  });
});

describe('the transcript as a window of the log', () => {
  /** Entries 10-14 of a longer log: older ones before them, newer ones the window dropped. */
  const windowed = (): TranscriptData => {
    const t = running();
    // What streamed live belongs after the entries the window dropped: not drawn here.
    t.items.push({ type: 'assistant', turnId: 't1', text: 'streamed live' });
    return { ...t, more: true, newer: true };
  };

  it('draws only the stored rows, asks for the pages on either side as the person scrolls, and jumps to either end on request', () => {
    const calls: string[] = [];
    const on = (name: string) => () => calls.push(name);
    render(
      <I18nProvider lang="en">
        <Transcript transcript={windowed()} onStop={() => {}} onContinue={() => {}} onOlder={on('older')} onNewer={on('newer')} onStart={on('start')} onLatest={on('latest')} />
      </I18nProvider>,
    );
    const log = screen.getByTestId('transcript');
    expect(log.dataset.first).toBe('10');
    expect(screen.queryByText('streamed live')).toBeNull();
    expect(screen.getAllByTestId('tool-card')).toHaveLength(3);

    // The bottom of a window that dropped the newest pages is not the end: the page after is
    // asked for, and the ways to both ends show.
    fireEvent.scroll(log);
    expect(calls).toEqual(['older', 'newer']);
    fireEvent.click(screen.getByTestId('jump-start'));
    expect(screen.getByTestId('jump-start').textContent).toBe('Jump to start');
    fireEvent.click(screen.getByTestId('jump-latest'));
    expect(calls).toEqual(['older', 'newer', 'start', 'latest']);
  });

  it('says "Jump to start" in Chinese too', () => {
    render(
      <I18nProvider lang="zh-CN">
        <Transcript transcript={windowed()} onStop={() => {}} onContinue={() => {}} onStart={() => {}} />
      </I18nProvider>,
    );
    fireEvent.scroll(screen.getByTestId('transcript'));
    expect(screen.getByTestId('jump-start').textContent).toBe('跳到开头');
  });
});
