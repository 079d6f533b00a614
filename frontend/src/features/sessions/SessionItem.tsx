import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Session } from '../../bridge';
import { useI18n, useT } from '../../i18n/I18nProvider';
import { IconButton } from '../../ui/IconButton';
import { ForkIcon, PencilIcon, TrashIcon } from '../../ui/icons';
import { DeleteConfirm } from './DeleteConfirm';
import { fullDateTime, relativeTime } from './formatTime';
import { RenameInput } from './RenameInput';
import { sessionBadge, type SessionBadge } from './sessionState';

type Mode = 'idle' | 'renaming' | 'saving' | 'confirming' | 'deleting';

export interface SessionItemProps {
  session: Session;
  unread: boolean;
  selected: boolean;
  now: number;
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
  onArrow: (from: HTMLElement, dir: 1 | -1) => void;
}

export function SessionItem(props: SessionItemProps) {
  const { session, unread, selected, now, focusRequested, onFocused, onSelect, onRename, onDelete, onFork, onArrow } = props;
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
      onArrow(e.currentTarget, e.key === 'ArrowDown' ? 1 : -1);
    }
  };

  const badge = sessionBadge(session, unread);
  const className = ['session-item', selected && 'is-selected', badge === 'unread' && 'is-unread', mode !== 'idle' && `is-${mode}`]
    .filter(Boolean)
    .join(' ');

  return (
    <li className={className} data-testid="session-item" data-session-id={session.id}>
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
              <time className="session-item__time" dateTime={session.updatedAt} title={fullDateTime(session.updatedAt, lang)}>
                {relativeTime(session.updatedAt, lang, now)}
              </time>
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
}

/** Before the title: a pulsing dot while a turn runs, a still one for news not yet seen. */
function StateDot({ badge }: { badge: SessionBadge }) {
  const t = useT();
  if (badge === 'running') {
    return <span className="session-item__running" data-testid="session-running" role="img" aria-label={t('composer.sessions.running')} />;
  }
  if (badge === 'unread') {
    return <span className="session-item__unread" data-testid="session-unread" role="img" aria-label={t('composer.sessions.unread')} />;
  }
  return null;
}
