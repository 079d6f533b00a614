import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Session } from '../../bridge';
import { useI18n, useT } from '../../i18n/I18nProvider';
import { IconButton } from '../../ui/IconButton';
import { ForkIcon, PencilIcon, TrashIcon } from '../../ui/icons';
import { DeleteConfirm } from './DeleteConfirm';
import { fullDateTime, relativeTime } from './formatTime';
import { RenameInput } from './RenameInput';
import { sessionBadge, type SessionBadge } from './sessionState';
import { useNow } from './useNow';

type Mode = 'idle' | 'renaming' | 'saving' | 'confirming' | 'deleting';

export interface SessionItemProps {
  session: Session;
  /** Where the row stands in the list: its number (for assistive technology and the virtualizer). */
  index: number;
  /** The row's offset from the top of the list, in pixels (the list is virtualized). */
  start: number;
  /** Lets the virtualizer measure the row's height. */
  measureRef?: (el: HTMLLIElement | null) => void;
  setSize: number;
  unread: boolean;
  selected: boolean;
  /** When true the item takes keyboard focus once (after create, delete, or rename). */
  focusRequested: boolean;
  onFocused: () => void;
  onSelect: (id: string) => void;
  /** Resolves true when the rename was saved (failures are reported by the caller). */
  onRename: (id: string, title: string) => Promise<boolean>;
  /** Resolves true when the session was deleted (failures are reported by the caller). */
  onDelete: (id: string) => Promise<boolean>;
  /** Copies the session with its history into a new one. */
  onFork: (id: string) => void;
  /** Moves keyboard focus to the row `dir` away from the row at `index`. */
  onArrow: (index: number, dir: 1 | -1) => void;
}

/**
 * One row of the session list. Memoized: the list re-renders as the person scrolls, and a row
 * whose session, marks and handlers did not change is left alone.
 */
export const SessionItem = memo(function SessionItem(props: SessionItemProps) {
  const { session, index, start, measureRef, setSize, unread, selected, focusRequested, onFocused, onSelect, onRename, onDelete, onFork, onArrow } = props;
  const { t, lang } = useI18n();
  const [mode, setMode] = useState<Mode>('idle');
  const mainRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (focusRequested && mode === 'idle') {
      mainRef.current?.focus();
      onFocused();
    }
  }, [focusRequested, mode, onFocused]);

  const backToIdle = () => {
    setMode('idle');
    requestAnimationFrame(() => mainRef.current?.focus());
  };

  const save = async (title: string) => {
    setMode('saving');
    await onRename(session.id, title);
    backToIdle();
  };

  const remove = async () => {
    setMode('deleting');
    // On success this item unmounts and the list moves focus on; on failure it stays here.
    if (!(await onDelete(session.id))) backToIdle();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === 'F2') {
      e.preventDefault();
      setMode('renaming');
    } else if (e.key === 'Delete') {
      e.preventDefault();
      setMode('confirming');
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      onArrow(index, e.key === 'ArrowDown' ? 1 : -1);
    }
  };

  const badge = sessionBadge(session, unread);
  const className = ['session-item', selected && 'is-selected', badge === 'unread' && 'is-unread', mode !== 'idle' && `is-${mode}`]
    .filter(Boolean)
    .join(' ');

  return (
    <li
      ref={measureRef}
      className={className}
      data-testid="session-item"
      data-session-id={session.id}
      data-index={index}
      aria-posinset={index + 1}
      aria-setsize={setSize}
      style={{ transform: `translateY(${start}px)` }}
    >
      {mode === 'renaming' ? (
        <RenameInput initial={session.title} onSave={(title) => void save(title)} onCancel={backToIdle} />
      ) : (
        <>
          <button
            ref={mainRef}
            type="button"
            className="session-item__main"
            data-testid="session-select"
            aria-current={selected ? 'page' : undefined}
            title={session.title}
            disabled={mode === 'saving' || mode === 'deleting'}
            onClick={() => onSelect(session.id)}
            onDoubleClick={() => setMode('renaming')}
            onKeyDown={onKeyDown}
          >
            <span className="session-item__title" data-testid="session-title">
              <StateDot badge={badge} />
              {session.title}
            </span>
            <span className="session-item__sub">
              <RelativeTime iso={session.updatedAt} lang={lang} />
              {badge === 'waiting' && (
                <span className="session-item__waiting" data-testid="session-waiting" data-count={session.waiting}>
                  {(session.waiting ?? 0) > 1
                    ? t('composer.sessions.waitingMany', { Count: session.waiting ?? 0 })
                    : t('composer.sessions.waiting')}
                </span>
              )}
            </span>
          </button>
          {mode === 'idle' && (
            <div className="session-item__actions">
              <IconButton
                testId="rename-session"
                label={t('shell.sessions.renameNamed', { Title: session.title })}
                title={t('shell.sessions.rename')}
                onClick={() => setMode('renaming')}
              >
                <PencilIcon size={14} />
              </IconButton>
              <IconButton
                testId="fork-session"
                label={t('composer.sessions.forkNamed', { Title: session.title })}
                title={t('composer.sessions.fork')}
                onClick={() => onFork(session.id)}
              >
                <ForkIcon size={14} />
              </IconButton>
              <IconButton
                danger
                testId="delete-session"
                label={t('shell.sessions.deleteNamed', { Title: session.title })}
                title={t('shell.sessions.delete')}
                onClick={() => setMode('confirming')}
              >
                <TrashIcon size={14} />
              </IconButton>
            </div>
          )}
        </>
      )}
      {(mode === 'confirming' || mode === 'deleting') && (
        <DeleteConfirm
          title={session.title}
          busy={mode === 'deleting'}
          onConfirm={() => void remove()}
          onCancel={backToIdle}
        />
      )}
    </li>
  );
});

/** The row's "5 minutes ago": the only part of a row the clock re-renders. */
function RelativeTime({ iso, lang }: { iso: string; lang: string }) {
  const now = useNow();
  return (
    <time className="session-item__time" dateTime={iso} title={fullDateTime(iso, lang)} data-testid="session-time">
      {relativeTime(iso, lang, now)}
    </time>
  );
}

/** Before the title: a turning ring while a turn runs, a solid dot for news not yet seen; each named, with a tooltip. */
function StateDot({ badge }: { badge: SessionBadge }) {
  const t = useT();
  if (badge === 'running') {
    return <span className="session-item__running" data-testid="session-running" role="img" aria-label={t('composer.sessions.running')} title={t('composer.sessions.running')} />;
  }
  if (badge === 'unread') {
    return <span className="session-item__unread" data-testid="session-unread" role="img" aria-label={t('composer.sessions.unread')} title={t('composer.sessions.unread')} />;
  }
  return null;
}
