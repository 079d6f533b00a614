import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../bridge';
import { I18nProvider } from '../../i18n/I18nProvider';
import { SessionList } from './SessionList';
import * as state from './sessionState';
import { TICK_MS } from './useNow';

// Every row works out its badge when it renders: counting the calls counts the row renders.
vi.mock('./sessionState', async (importOriginal) => {
  const real = await importOriginal<typeof import('./sessionState')>();
  return { ...real, sessionBadge: vi.fn(real.sessionBadge) };
});

const at = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
const session = (i: number, updatedAt: string): Session => ({
  id: `s${i}`,
  title: `Session ${i}`,
  workspace: '/w',
  interactionMode: 'smart',
  executionOverride: '',
  permissionMode: 'ask',
  running: false,
  waiting: 0,
  stateSeq: 0,
  createdAt: updatedAt,
  updatedAt,
});

function List({ sessions, unread = [] }: { sessions: Session[]; unread?: string[] }) {
  return (
    <I18nProvider lang="en">
      <div data-testid="sessions-scroll">
        <SessionList
          sessions={sessions}
          unread={unread}
          selectedId="s0"
          focusId={null}
          onFocused={() => {}}
          onSelect={() => {}}
          onRename={async () => true}
          onDelete={async () => true}
          onFork={() => {}}
        />
      </div>
    </I18nProvider>
  );
}

afterEach(() => vi.useRealTimers());

describe('the virtualized session list', () => {
  it('marks a running session and an unread one differently, each with its own accessible name', () => {
    render(<List sessions={[{ ...session(0, at(1000)), running: true }, session(1, at(2000))]} unread={['s1']} />);
    const running = screen.getByRole('img', { name: 'A turn is running' });
    const unread = screen.getByRole('img', { name: 'New since you looked' });
    expect(running.className).toBe('session-item__running');
    expect(unread.className).toBe('session-item__unread');
    expect(running.getAttribute('title')).toBe('A turn is running');
    expect(unread.getAttribute('title')).toBe('New since you looked');
  });

  it('mounts only the rows in view of a long list', async () => {
    // The test viewport is 4,000 px tall and a row 40 px (src/test/setup.ts): 100 rows and the overscan, not 5,000.
    render(<List sessions={Array.from({ length: 5000 }, (_, i) => session(i, '2025-01-01T00:00:00Z'))} />);
    const rows = await screen.findAllByTestId('session-item');
    expect(rows.length).toBeGreaterThan(50);
    expect(rows.length).toBeLessThan(150);
    expect(rows[0]?.getAttribute('aria-posinset')).toBe('1');
    expect(rows[0]?.getAttribute('aria-setsize')).toBe('5000');
  });

  it('brings the relative times up to date on the clock tick without rendering the rows again', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    render(<List sessions={[session(0, at(45_000)), session(1, at(195_000))]} />);
    await screen.findAllByTestId('session-time');
    const times = () => screen.getAllByTestId('session-time').map((t) => t.textContent);
    expect(times()).toEqual(['now', '3 minutes ago']);
    const badges = vi.mocked(state.sessionBadge);
    badges.mockClear();
    act(() => vi.advanceTimersByTime(TICK_MS));
    expect(times()).toEqual(['1 minute ago', '4 minutes ago']);
    expect(badges).not.toHaveBeenCalled();
  });
});
