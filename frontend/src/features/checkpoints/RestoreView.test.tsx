import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Api, RestorePreview } from '../../bridge';
import { I18nProvider } from '../../i18n/I18nProvider';
import { RestoreView } from './RestoreView';

function open(reason: string) {
  const preview: RestorePreview = {
    checkpoint: { id: 15, sessionId: 's1', workspace: '/w', reason, files: 1, bytes: 10, createdAt: '2026-03-04T10:20:00Z' },
    scope: 'files', files: [], deletes: [], unrestorable: [],
  };
  const api = { checkpoints: { preview: async () => preview, restore: async () => null } } as unknown as Api;
  render(
    <I18nProvider lang="en">
      <RestoreView api={api} sessionId="s1" checkpointId={15} onClose={() => {}} onForked={() => {}} />
    </I18nProvider>,
  );
}

describe('RestoreView title', () => {
  it('undoing a restore is titled by what it undoes and when, never by the checkpoint number', async () => {
    open('before_restore');
    const title = await screen.findByText(/^Undo the restore made at /);
    expect(title.textContent).toContain('2026');
    expect(screen.getByTestId('restore-view').textContent).not.toContain('15');
  });

  it('undoing a revert says so, and when', async () => {
    open('before_review');
    expect((await screen.findByText(/^Undo the revert made at /)).textContent).toContain('2026');
  });

  it('a plain restore says when', async () => {
    open('turn');
    expect((await screen.findByText(/^Restore to how things were at /)).textContent).toContain('2026');
  });
});
