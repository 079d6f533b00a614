import { useCallback, useRef } from 'react';
import type { Session } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { SessionItem } from './SessionItem';
import { useNow } from './useNow';

export interface SessionListProps {
  sessions: Session[];
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

export function SessionList({ sessions, unread, selectedId, focusId, onFocused, onSelect, onRename, onDelete, onFork }: SessionListProps) {
  const t = useT();
  const now = useNow();
  const listRef = useRef<HTMLUListElement>(null);

  // Arrow keys move between sessions; Tab moves on to the next control.
  const onArrow = useCallback((from: HTMLElement, dir: 1 | -1) => {
    const buttons = [...(listRef.current?.querySelectorAll<HTMLButtonElement>('.session-item__main') ?? [])];
    const next = buttons[buttons.indexOf(from as HTMLButtonElement) + dir];
    next?.focus();
  }, []);

  return (
    <ul ref={listRef} className="session-list" data-testid="session-list" aria-label={t('shell.sessions.listLabel')}>
      {sessions.map((s) => (
        <SessionItem
          key={s.id}
          session={s}
          unread={unread.includes(s.id)}
          selected={s.id === selectedId}
          now={now}
          focusRequested={s.id === focusId}
          onFocused={onFocused}
          onSelect={onSelect}
          onRename={onRename}
          onDelete={onDelete}
          onFork={onFork}
          onArrow={onArrow}
        />
      ))}
    </ul>
  );
}
