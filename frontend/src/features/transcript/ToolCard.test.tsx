import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ToolItem } from '../../bridge';
import { I18nProvider } from '../../i18n/I18nProvider';
import { ToolCard } from './ToolCard';

const edit = (patch: Partial<ToolItem>): ToolItem => ({
  type: 'tool', turnId: 't1', callId: 'c1', name: 'edit', input: { path: 'a.txt' }, output: '', isError: false,
  verdict: 'ask', layer: 'mode', code: '', approved: 'allow_once', done: true, ...patch,
});

describe('ToolCard', () => {
  it('a change applied in part after review before apply is not shown as an error', () => {
    const item = edit({
      output: 'PARTIALLY_APPLIED: the person reviewed your change to a.txt hunk by hunk and applied 1 of its 2 hunks.',
      isError: true,
      display: { key: 'tool.result.partial', args: { Path: 'a.txt', Applied: 1, Total: 2 } },
    });
    render(<I18nProvider lang="en"><ToolCard item={item} /></I18nProvider>);
    const card = screen.getByTestId('tool-card');
    expect(card.className).not.toContain('is-error');
    expect(screen.queryByTestId('tool-error')).toBeNull();
    expect(screen.getByTestId('tool-output').textContent).toBe('Applied 1 of the 2 hunks of the change to a.txt, as you chose; you rejected the others.');
  });

  it('a failed call still shows the error the agent saw', () => {
    render(<I18nProvider lang="en"><ToolCard item={edit({ output: 'boom', isError: true })} /></I18nProvider>);
    expect(screen.getByTestId('tool-card').className).toContain('is-error');
    expect(screen.getByTestId('tool-error').textContent).toContain('Error the agent saw');
  });
});
