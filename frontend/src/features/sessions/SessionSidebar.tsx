import { forwardRef } from 'react';
import type { Session } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PlusIcon } from '../../ui/icons';
import type { SessionsState } from './sessionsStore';
import { SessionList, type SessionListProps } from './SessionList';

type Props = Omit<SessionListProps, 'sessions' | 'more'> & {
  state: SessionsState;
  /** The new-task composer is showing. */
  drafting: boolean;
  onCreate: () => void;
  onRetry: () => void;
  /** Asks for the next page of the list: the person scrolled near its end. */
  onMore?: () => void;
};

/** How close to the end of the list (in pixels) the next page is asked for. */
const MORE_MARGIN = 400;

function SkeletonRows() {
  return (
    <ul className="session-list" aria-hidden="true">
      {[0, 1, 2].map((i) => (
        <li key={i} className="session-skeleton" />
      ))}
    </ul>
  );
}

/** The sessions part of the sidebar: heading, New session, and the list in its current state. */
export const SessionSidebar = forwardRef<HTMLButtonElement, Props>(function SessionSidebar(
  { state, drafting, onCreate, onRetry, onMore, ...listProps },
  newButtonRef,
) {
  const t = useT();
  const sessions: Session[] = state.sessions;
  return (
    <section className="sidebar__sessions" aria-labelledby="sessions-heading">
      <div className="sidebar__section-head">
        <h2 id="sessions-heading" className="sidebar__heading">
          {t('shell.sessions.heading')}
        </h2>
        <button
          ref={newButtonRef}
          type="button"
          className="btn btn--primary btn--small"
          data-testid="new-session"
          onClick={onCreate}
          aria-current={drafting ? 'page' : undefined}
        >
          <PlusIcon size={14} />
          <span>{t('shell.sessions.new')}</span>
        </button>
      </div>
      <div
        className="sidebar__scroll"
        data-testid="sessions-scroll"
        onScroll={(e) => {
          const el = e.currentTarget;
          if (state.next && el.scrollHeight - el.scrollTop - el.clientHeight < MORE_MARGIN) onMore?.();
        }}
      >
        {state.status === 'loading' && <SkeletonRows />}
        {state.status === 'error' && (
          <ErrorNotice error={state.error} title={t('shell.sessions.loadFailed')} onRetry={onRetry} testId="sessions-error" />
        )}
        {state.status === 'ready' && sessions.length === 0 && (
          <p className="sidebar__empty" data-testid="sessions-empty-hint">
            {t('shell.sessions.emptyHint')}
          </p>
        )}
        {state.status === 'ready' && sessions.length > 0 && <SessionList sessions={sessions} more={Boolean(state.next)} {...listProps} />}
      </div>
    </section>
  );
});
