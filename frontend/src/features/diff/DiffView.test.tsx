import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { I18nProvider } from '../../i18n/I18nProvider';
import DiffView from './DiffView';

const renderDiff = (change: Parameters<typeof DiffView>[0]['change']) =>
  render(
    <I18nProvider lang="en">
      <DiffView change={change} />
    </I18nProvider>,
  );

describe('the approval diff', () => {
  it('shows an edit unified, then side by side, highlighted', async () => {
    renderDiff({ path: 'main.go', before: 'package main\n\nfunc main() {\n\tprintln("a")\n}\n', after: 'package main\n\nfunc main() {\n\tprintln("b")\n}\n' });
    expect(screen.getByTestId('diff-path').textContent).toBe('main.go');
    expect(screen.getByTestId('diff-note').textContent).toBe('+1 −1');
    const lines = screen.getAllByTestId('diff-line');
    expect(lines.filter((l) => l.dataset.kind === 'del').map((l) => l.textContent)).toEqual(['4−\tprintln("a")']);
    expect(lines.filter((l) => l.dataset.kind === 'add').map((l) => l.textContent)).toEqual(['4+\tprintln("b")']);
    expect(screen.getByTestId('diff').querySelector('.hljs-string')).not.toBeNull();

    await userEvent.click(screen.getByTestId('diff-layout-split'));
    const changed = screen.getAllByTestId('diff-row').find((r) => r.textContent?.includes('"a"'))!;
    expect(changed.textContent).toContain('"b"');
  });

  it('shows a new file as its content with line numbers', () => {
    renderDiff({ path: 'hello.sh', before: '', after: '#!/bin/sh\necho hi\n', created: true });
    expect(screen.getByTestId('diff').dataset.layout).toBe('new-file');
    expect(screen.getByTestId('diff-note').textContent).toBe('New file, 2 lines');
    expect(screen.getAllByTestId('diff-line').map((l) => within(l).getAllByRole('cell')[0]!.textContent)).toEqual(['1', '2']);
  });

  it('says why nothing is shown for a binary file', () => {
    renderDiff({ path: 'a.bin', before: '', after: '', omitted: 'binary' });
    expect(screen.getByTestId('diff-note').textContent).toBe('Binary content: no diff to show.');
  });
});
