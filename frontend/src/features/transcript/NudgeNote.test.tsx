import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Transcript as TranscriptData } from '../../bridge';
import { I18nProvider } from '../../i18n/I18nProvider';
import { Transcript } from './Transcript';
import { normalizeTranscript } from './transcriptReducer';

const REMINDER = 'You have not yet run a verification command that passed since your last change.';

function page(lang: 'en' | 'zh-CN') {
  const transcript: TranscriptData = normalizeTranscript({
    sessionId: 's1',
    items: [
      { type: 'user', turnId: 't1', text: 'create x.txt', seq: 2 },
      { type: 'assistant', turnId: 't1', text: 'Done.', seq: 3 },
      { type: 'nudge', turnId: 't1', text: REMINDER, seq: 4 },
      { type: 'user', turnId: 't1', text: 'and y.txt', steer: true, seq: 5 },
    ] as never,
    turns: [],
  });
  return render(
    <I18nProvider lang={lang}>
      <Transcript transcript={transcript} onStop={() => {}} onContinue={() => {}} />
    </I18nProvider>,
  );
}

describe("Verified mode's reminder in the transcript", () => {
  it("reads as AgentDesk's note, not as the person's message", () => {
    page('en');
    const note = screen.getByTestId('msg-nudge');
    expect(note.textContent).toContain('AgentDesk reminded the agent to verify its work');
    expect(note.getAttribute('role')).toBe('note');
    // The words the model read are at hand, but in no bubble of the person's.
    expect(note.getAttribute('title')).toBe(REMINDER);
    const bubbles = screen.getAllByTestId('msg-user').map((b) => b.textContent ?? '');
    expect(bubbles).toHaveLength(2);
    expect(bubbles.some((b) => b.includes(REMINDER))).toBe(false);
    expect(bubbles[1]).toContain('and y.txt');
  });

  it('is localized', () => {
    page('zh-CN');
    expect(screen.getByTestId('msg-nudge').textContent).toContain('提醒智能体验证其工作');
  });
});
