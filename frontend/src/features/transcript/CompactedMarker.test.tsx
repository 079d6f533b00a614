import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { CompactedItem, Transcript as TranscriptData } from '../../bridge';
import { BridgeError } from '../../bridge';
import { I18nProvider } from '../../i18n/I18nProvider';
import { CheckpointActionsContext, type CheckpointActions } from '../checkpoints/actions';
import { Transcript } from './Transcript';
import { normalizeTranscript } from './transcriptReducer';

const compacted: CompactedItem = {
  type: 'compacted',
  turnId: 't2',
  seq: 9,
  compacted: { from: 2, through: 6, summary: 'The person asked for **tests**; a.txt was read.', tokensBefore: 1800, tokensAfter: 300, window: 2000 },
};

function page(lang: 'en' | 'zh-CN', actions: CheckpointActions | null) {
  const transcript: TranscriptData = normalizeTranscript({
    sessionId: 's1',
    items: [{ type: 'user', turnId: 't1', text: 'read a.txt', steer: false, seq: 2 } as never, compacted],
    turns: [],
  });
  return render(
    <I18nProvider lang={lang}>
      <CheckpointActionsContext.Provider value={actions}>
        <Transcript transcript={transcript} onStop={() => {}} onContinue={() => {}} />
      </CheckpointActionsContext.Provider>
    </I18nProvider>,
  );
}

describe('a compaction in the transcript', () => {
  it('says the earlier conversation was summarised, shows the summary on demand and forks from before it', async () => {
    const forkBefore = vi.fn(() => Promise.resolve());
    page('en', { restore: vi.fn(), review: vi.fn(), openSession: vi.fn(), forkBefore });
    const marker = screen.getByTestId('context-compacted');
    expect(marker.textContent).toContain('Earlier conversation summarised');
    expect(marker.textContent).toContain('entries 2–6 (about 1800 tokens)');
    // The original messages stay shown above it.
    expect(screen.getByTestId('msg-user').textContent).toContain('read a.txt');
    expect(screen.queryByTestId('compacted-summary')).toBeNull();
    await userEvent.click(screen.getByTestId('compacted-toggle'));
    expect(screen.getByTestId('compacted-summary').textContent).toContain('a.txt was read');
    expect(screen.getByTestId('compacted-toggle').getAttribute('aria-expanded')).toBe('true');
    await userEvent.click(screen.getByTestId('compacted-toggle'));
    expect(screen.queryByTestId('compacted-summary')).toBeNull();
    await userEvent.click(screen.getByTestId('compacted-fork'));
    expect(forkBefore).toHaveBeenCalledWith(9);
  });

  it('shows why a fork failed, and offers none where the view cannot fork', async () => {
    const forkBefore = vi.fn(() => Promise.reject(new BridgeError('NOT_FOUND', '', { ID: 's1' })));
    const { unmount } = page('zh-CN', { restore: vi.fn(), review: vi.fn(), openSession: vi.fn(), forkBefore });
    expect(screen.getByTestId('context-compacted').textContent).toContain('较早的对话已总结');
    await userEvent.click(screen.getByTestId('compacted-fork'));
    expect(await screen.findByTestId('compacted-fork-error')).toBeTruthy();
    unmount();
    page('en', null);
    expect(screen.queryByTestId('compacted-fork')).toBeNull();
  });
});
