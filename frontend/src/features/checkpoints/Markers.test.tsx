import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { CheckpointItem, CheckpointMark, Item, RestoreItem, ReviewItem } from '../../bridge';
import { I18nProvider } from '../../i18n/I18nProvider';
import { emptyTranscript, transcriptReducer } from '../transcript/transcriptReducer';
import { CheckpointActionsContext, type CheckpointActions } from './actions';
import { CheckpointMarker, RestoreMarker, ReviewMarker } from './Markers';

const mark = (m: Partial<CheckpointMark> & Pick<CheckpointMark, 'reason'>): CheckpointMark => ({ sessionId: 's1', turnId: 't1', ...m });

function live(marks: CheckpointMark[]): Item[] {
  return marks.reduce((t, e) => transcriptReducer(t, { type: 'checkpoint.created', e }), emptyTranscript('s1')).items;
}

function renderItems(items: Item[], actions: CheckpointActions) {
  return render(
    <I18nProvider lang="en">
      <CheckpointActionsContext.Provider value={actions}>
        {items.map((it, i) =>
          it.type === 'checkpoint' ? (
            <CheckpointMarker key={i} item={it} />
          ) : it.type === 'restore' ? (
            <RestoreMarker key={i} item={it} />
          ) : it.type === 'review' ? (
            <ReviewMarker key={i} item={it} />
          ) : null,
        )}
      </CheckpointActionsContext.Provider>
    </I18nProvider>,
  );
}

const spies = () => ({ restore: vi.fn(), review: vi.fn(), openSession: vi.fn() });

describe('checkpoints in the transcript', () => {
  it('offers no Restore… before a Chat turn, which ran no tool', () => {
    const items = live([mark({ reason: 'turn', checkpointId: 1, files: 3 }), mark({ reason: 'turn', turnId: 't2', checkpointId: 2, files: 3 })]);
    renderItems(items, { ...spies(), restorable: (turnId) => turnId !== 't2' });
    const markers = screen.getAllByTestId('checkpoint-marker');
    expect(markers).toHaveLength(2);
    expect(screen.getAllByTestId('checkpoint-restore')).toHaveLength(1);
    expect(markers[1]!.querySelector('[data-testid="checkpoint-restore"]')).toBeNull();
  });

  it('shows the checkpoint before a turn, what each call changed and the turn’s changes; a snapshot before a call shows nothing', async () => {
    const items = live([
      mark({ reason: 'turn', checkpointId: 1, files: 3 }),
      mark({ reason: 'before_tool', checkpointId: 2, callId: 'c1' }),
      mark({ reason: 'after_tool', checkpointId: 3, callId: 'c1', from: 2, changed: [{ path: 'generated.txt', action: 'create' }, { path: 'old.txt', action: 'delete' }] }),
      mark({ reason: 'after_tool', checkpointId: 4, callId: 'c2', from: 3, changed: [] }),
      mark({ reason: 'turn_end', checkpointId: 5, from: 1, changed: [{ path: 'generated.txt', action: 'create' }, { path: 'old.txt', action: 'delete' }] }),
    ]);
    expect(items.map((i) => (i as CheckpointItem).checkpoint.reason)).toEqual(['turn', 'after_tool', 'after_tool', 'turn_end']);
    const a = spies();
    renderItems(items, a);
    expect(screen.getByTestId('checkpoint-marker').textContent).toContain('Checkpoint before this turn');
    // A call that changed nothing has no line of its own.
    expect(screen.getAllByTestId('checkpoint-call')).toHaveLength(1);
    expect(screen.getByTestId('checkpoint-call').textContent).toContain('+generated.txt, −old.txt');
    expect(screen.getByTestId('turn-changes').textContent).toContain('This turn changed 2 files');

    await userEvent.click(screen.getByTestId('checkpoint-restore'));
    await userEvent.click(screen.getByTestId('checkpoint-undo-call'));
    await userEvent.click(screen.getByTestId('review-changes'));
    expect(a.restore.mock.calls).toEqual([[1], [2]]);
    expect(a.review.mock.calls).toEqual([['t1']]);
  });

  it('says when a checkpoint could not be taken, and why, in the person’s words', () => {
    const items = live([mark({ reason: 'before_tool', callId: 'c1', error: 'CHECKPOINT_TOO_LARGE', errorArgs: { Path: '/w', Max: 100000 } })]);
    renderItems(items, spies());
    const failed = screen.getByTestId('checkpoint-failed');
    expect(failed.textContent).toContain('cannot be undone');
    expect(failed.textContent).toContain('/w');
    expect(failed.textContent).not.toContain('CHECKPOINT_TOO_LARGE');
  });

  it('shows a restore with its undo, a fork with its way to the new session, and a review with its reason', async () => {
    const restore: RestoreItem = { type: 'restore', turnId: '', restore: { checkpointId: 1, scope: 'both', undoId: 9, forkId: 'f1', changed: [{ path: 'a.txt', action: 'modify' }] } };
    const review: ReviewItem = {
      type: 'review',
      turnId: '',
      review: { turnId: 't1', path: 'a.txt', action: 'revert', hunks: [1], reason: 'not the footer', undoId: 11 },
    };
    const a = spies();
    renderItems([restore, review], a);
    expect(screen.getByTestId('restore-marker').textContent).toContain('Restored files to checkpoint 1 (1 changed); the conversation continues in a new session');
    expect(screen.getByTestId('review-marker').textContent).toContain('Reverted hunk(s) 2 of a.txt');
    expect(screen.getByTestId('review-marker-reason').textContent).toBe('“not the footer”');
    await userEvent.click(screen.getByTestId('restore-undo'));
    await userEvent.click(screen.getByTestId('restore-open-fork'));
    await userEvent.click(screen.getByTestId('review-undo'));
    expect(a.restore.mock.calls).toEqual([[9], [11]]);
    expect(a.openSession.mock.calls).toEqual([['f1']]);
  });
});
