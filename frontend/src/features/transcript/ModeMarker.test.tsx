import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Transcript as TranscriptData } from '../../bridge';
import { I18nProvider } from '../../i18n/I18nProvider';
import { Transcript } from './Transcript';
import { emptyTranscript, normalizeTranscript, transcriptReducer } from './transcriptReducer';

function page(transcript: TranscriptData) {
  return render(
    <I18nProvider lang="en">
      <Transcript transcript={transcript} onStop={() => {}} onContinue={() => {}} />
    </I18nProvider>,
  );
}

describe('the mode marker', () => {
  it('says an approved plan took the session back to the mode before Plan', () => {
    const transcript = normalizeTranscript({
      sessionId: 's1',
      items: [
        { type: 'mode', turnId: '', interactionMode: 'smart', executionOverride: 'plan', seq: 1 } as never,
        { type: 'user', turnId: 't1', text: 'plan the notes', steer: false, seq: 2 } as never,
        { type: 'mode', turnId: 't1', interactionMode: 'smart', executionOverride: '', modeReason: 'plan_approved', seq: 3 } as never,
      ],
      turns: [],
    });
    page(transcript);
    const marks = screen.getAllByTestId('mode-change');
    const last = marks[marks.length - 1]!;
    expect(last.dataset.reason).toBe('plan_approved');
    expect(last.textContent).toBe('Plan approved: back to Smart, the mode before Plan');
  });

  it('keeps the reason of a live mode change', () => {
    const t = transcriptReducer(emptyTranscript('s1'), {
      type: 'session.mode',
      e: { sessionId: 's1', interactionMode: 'smart', executionOverride: '', reason: 'plan_approved' },
    } as never);
    expect(t.items.at(-1)).toMatchObject({ type: 'mode', reason: 'plan_approved' });
  });
});

describe('the permission marker', () => {
  it('shows a permission change where it happened, stored or live', () => {
    const stored = normalizeTranscript({
      sessionId: 's1',
      items: [
        { type: 'user', turnId: 't1', text: 'hello', steer: false, seq: 1 } as never,
        { type: 'permission', turnId: '', permissionMode: 'full', seq: 2 } as never,
      ],
      turns: [],
    });
    const live = transcriptReducer(stored, { type: 'session.permission', e: { sessionId: 's1', permissionMode: 'ask' } });
    page(live);
    const marks = screen.getAllByTestId('permission-change');
    expect(marks.map((m) => m.textContent)).toEqual(['Permission: Full access', 'Permission: Ask']);
    expect(marks[0]!.dataset.permission).toBe('full');
  });
});
