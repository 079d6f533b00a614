import { defaultRangeExtractor, useVirtualizer, type Range, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef } from 'react';
import type { Session } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { SessionItem } from './SessionItem';

export interface SessionListProps {
  sessions: Session[];
  /** More sessions exist than are loaded (the next page is not read yet). */
  more?: boolean;
  /** Sessions with news the person has not seen. */
  unread: readonly string[];
  selectedId: string | null;
  focusId: string | null;
  onFocused: () => void;
  onSelect: (id: string) => void;
  onRename: (id: string, title: string) => Promise<boolean>;
  onDelete: (id: string) => Promise<boolean>;
  onFork: (id: string) => void;
}

/**
 * A row's height: the title and the time on two lines (shell.css: 7 px of padding above and
 * below, a 21 px and an 18 px line, 1 px between). Exact, so the first screen places its rows
 * without measuring any; a row that differs (a rename field, a delete confirmation) is measured.
 */
export const ROW_HEIGHT = 54;

/**
 * A row's height as the virtualizer asks for it: the ResizeObserver's report when there is one.
 * A row just mounted is given what is known of it (its last size, else ROW_HEIGHT) instead of
 * being read from the layout, which would force the whole page's layout in the middle of the
 * commit; the observer's first report comes before the frame is painted and corrects a row that
 * differs.
 */
function rowSize(el: Element, entry: ResizeObserverEntry | undefined, v: Virtualizer<HTMLElement, Element>): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  return v.itemSizeCache.get(v.options.getItemKey(v.indexFromElement(el))) ?? ROW_HEIGHT;
}

/**
 * The scroller's size before it is read: the window's height, which the sidebar's scroller never
 * exceeds, so the first render already holds every row in view.
 */
const initialRect = () => ({ width: 0, height: typeof window === 'undefined' ? 0 : window.innerHeight });
/** Rows rendered beyond the visible ones, so arrow keys and quick scrolls find rows ready. */
const OVERSCAN = 8;

/**
 * Handlers that keep one identity for the life of the list while always calling the newest
 * function given: the rows are memoized, and a handler made afresh on every render of the shell
 * would re-render every row with it.
 */
function useStable<A extends unknown[], R>(f: (...args: A) => R): (...args: A) => R {
  const ref = useRef(f);
  ref.current = f;
  return useCallback((...args: A) => ref.current(...args), []);
}

/**
 * The session list, virtualized: only the rows in view (and a few around them) are in the page,
 * so ten thousand sessions cost what twenty do. Rows are placed at ROW_HEIGHT and measured by a
 * ResizeObserver (a rename field or a delete confirmation makes one taller).
 *
 * Hooks the e2e suites and the browser benchmark rely on (keep them): the list is
 * [data-testid="session-list"], a child of the scroller [data-testid="sessions-scroll"]; each mounted
 * row is [data-testid="session-item"] with data-session-id, data-index, aria-posinset (1-based)
 * and aria-setsize (-1 while more pages follow); its button is [data-testid="session-select"].
 */
export function SessionList(props: SessionListProps) {
  const { sessions, more = false, unread, selectedId, focusId } = props;
  const t = useT();
  const onFocused = useStable(props.onFocused);
  const onSelect = useStable(props.onSelect);
  const onRename = useStable(props.onRename);
  const onDelete = useStable(props.onDelete);
  const onFork = useStable(props.onFork);
  // The row holding keyboard focus stays mounted while it scrolls out of view, so focus is not lost.
  const focused = useRef(-1);

  const rangeExtractor = useCallback((range: Range) => {
    const rows = defaultRangeExtractor(range);
    const f = focused.current;
    if (f < 0 || f >= range.count || rows.includes(f)) return rows;
    return [...rows, f].sort((a, b) => a - b);
  }, []);
  const listRef = useRef<HTMLUListElement>(null);
  const virtualizer = useVirtualizer({
    count: sessions.length,
    // The element that scrolls the list is the list's parent: it is there in the commit that
    // mounts the list, so the first render is not followed by another once it is known.
    getScrollElement: () => listRef.current?.parentElement ?? null,
    estimateSize: () => ROW_HEIGHT,
    measureElement: rowSize,
    initialRect: initialRect(),
    getItemKey: (i) => sessions[i]!.id,
    overscan: OVERSCAN,
    gap: 1,
    rangeExtractor,
  });

  // Arrow keys move between sessions; Tab moves on to the next control. The next row may not be
  // mounted yet: scroll it into view first, then focus it once it is.
  const onArrow = useCallback(
    (from: number, dir: 1 | -1) => {
      const to = from + dir;
      if (to < 0 || to >= virtualizer.options.count) return;
      virtualizer.scrollToIndex(to, { align: 'auto' });
      const focusRow = (tries: number) => {
        const row = listRef.current?.querySelector<HTMLButtonElement>(`[data-index="${to}"] .session-item__main`);
        if (row) row.focus();
        else if (tries > 0) requestAnimationFrame(() => focusRow(tries - 1));
      };
      focusRow(3);
    },
    [virtualizer],
  );

  // A row asked to take focus (after create, fork, delete or rename) is brought into view first.
  useEffect(() => {
    if (!focusId) return;
    const i = sessions.findIndex((s) => s.id === focusId);
    if (i >= 0) virtualizer.scrollToIndex(i, { align: 'auto' });
  }, [focusId, sessions, virtualizer]);

  const setSize = more ? -1 : sessions.length;
  return (
    <ul
      ref={listRef}
      className="session-list session-list--virtual"
      data-testid="session-list"
      aria-label={t('shell.sessions.listLabel')}
      style={{ height: virtualizer.getTotalSize() }}
      onFocus={(e) => {
        const row = (e.target as HTMLElement).closest<HTMLElement>('[data-index]');
        focused.current = row ? Number(row.dataset.index) : -1;
      }}
    >
      {virtualizer.getVirtualItems().map((row) => {
        const s = sessions[row.index]!;
        return (
          <SessionItem
            key={row.key}
            measureRef={virtualizer.measureElement}
            start={row.start}
            session={s}
            index={row.index}
            setSize={setSize}
            unread={unread.includes(s.id)}
            selected={s.id === selectedId}
            focusRequested={s.id === focusId}
            onFocused={onFocused}
            onSelect={onSelect}
            onRename={onRename}
            onDelete={onDelete}
            onFork={onFork}
            onArrow={onArrow}
          />
        );
      })}
    </ul>
  );
}
