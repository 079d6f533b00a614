import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Api, Session } from '../bridge';
import { createNewTaskStore } from '../features/composer/newTaskStore';
import { useDecisionNotifications } from '../features/notify/useDecisionNotifications';
import Onboarding from '../features/onboarding/Onboarding';
import { NewTaskView } from '../features/sessions/NewTaskView';
import { SessionSidebar } from '../features/sessions/SessionSidebar';
import type { SessionsStore } from '../features/sessions/sessionsStore';
import { SessionView } from '../features/sessions/SessionView';
import { SettingsPage } from '../features/settings/SettingsPage';
import type { SettingsStore } from '../features/settings/settingsStore';
import { useThemeSetting } from '../features/settings/useThemeSetting';
import { useT } from '../i18n/I18nProvider';
import { ErrorNotice } from '../ui/ErrorNotice';
import { GearIcon, LogoMark } from '../ui/icons';
import { Spinner } from '../ui/Spinner';
import { useStore } from '../ui/store';
import { ConnectionBanner } from './ConnectionBanner';
import { useRoute } from './route';
import { useSystemInfo } from './useSystemInfo';

export function Shell({ api, sessions, settings }: { api: Api; sessions: SessionsStore; settings: SettingsStore }) {
  const t = useT();
  const state = useStore(sessions);
  const { language } = useStore(settings);
  const [route, navigate] = useRoute();
  const [info, reloadInfo] = useSystemInfo(api);
  const [actionError, setActionError] = useState<unknown>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const newButtonRef = useRef<HTMLButtonElement>(null);
  const draft = useMemo(() => createNewTaskStore(api), [api]);

  useThemeSetting();
  useDecisionNotifications();

  const list = state.sessions;
  const routed = route.page === 'session' ? list.find((s) => s.id === route.id) : undefined;
  const seekId = useSeekSession(sessions, route.page === 'session' && !routed && state.status === 'ready' ? route.id : null);
  // Home, or a session that no longer exists, shows the newest session; with none, a new task.
  const current = route.page === 'settings' || route.page === 'new' ? undefined : (routed ?? (seekId ? undefined : list[0]));

  const viewingId = current?.id ?? null;
  useEffect(() => sessions.setViewing(viewingId), [sessions, viewingId]);

  useEffect(() => {
    if (state.status !== 'ready' || seekId || route.page === 'settings' || route.page === 'new') return;
    if (current && !(route.page === 'session' && route.id === current.id)) {
      navigate({ page: 'session', id: current.id }, { replace: true });
    } else if (!current) {
      // Nothing to show: the new task is a place of its own, so a session appearing while its
      // first message is on the way does not pull the view away from the draft.
      navigate({ page: 'new' }, { replace: true });
    }
  }, [state.status, seekId, route, current, navigate]);

  const newTask = useCallback(() => {
    setActionError(null);
    navigate({ page: 'new' });
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="composer-input"]')?.focus());
  }, [navigate]);

  const started = useCallback(
    (s: Session) => {
      sessions.upsert(s);
      navigate({ page: 'session', id: s.id });
    },
    [sessions, navigate],
  );

  const rename = useCallback(
    async (id: string, title: string) => {
      setActionError(null);
      try {
        await sessions.rename(id, title);
        return true;
      } catch (err) {
        setActionError(err);
        return false;
      }
    },
    [sessions],
  );

  const fork = useCallback(
    async (id: string) => {
      setActionError(null);
      try {
        const s = await sessions.fork(id);
        navigate({ page: 'session', id: s.id });
        setFocusId(s.id);
      } catch (err) {
        setActionError(err);
      }
    },
    [sessions, navigate],
  );

  const remove = useCallback(
    async (id: string) => {
      setActionError(null);
      const before = sessions.get().sessions;
      const index = before.findIndex((s) => s.id === id);
      try {
        await sessions.remove(id);
      } catch (err) {
        setActionError(err);
        return false;
      }
      const after = sessions.get().sessions;
      const next = after[Math.min(Math.max(index, 0), after.length - 1)];
      if (next) {
        if (route.page !== 'settings' && current?.id === id) navigate({ page: 'session', id: next.id }, { replace: true });
        setFocusId(next.id);
      } else {
        navigate({ page: 'new' }, { replace: true });
        newButtonRef.current?.focus();
      }
      return true;
    },
    [sessions, route.page, current?.id, navigate],
  );

  const select = useCallback((id: string) => navigate({ page: 'session', id }), [navigate]);
  const clearFocus = useCallback(() => setFocusId(null), []);
  const onSessionReady = useCallback((id: string) => navigate({ page: 'session', id }), [navigate]);
  const onSettings = route.page === 'settings';
  const drafting = !onSettings && !current && !seekId && state.status === 'ready';

  return (
    <div className="shell" data-testid="app-shell">
      <a className="skip-link" href="#main">
        {t('shell.a11y.skipToContent')}
      </a>
      <nav className="sidebar" aria-label={t('shell.a11y.sidebar')}>
        <div className="sidebar__brand">
          <LogoMark size={18} className="sidebar__logo" />
          <span className="sidebar__name">{t('shell.app.name')}</span>
        </div>
        <SessionSidebar
          ref={newButtonRef}
          state={state}
          unread={state.unread}
          drafting={drafting}
          onCreate={newTask}
          onRetry={() => void sessions.load()}
          onMore={() => void sessions.loadMore()}
          selectedId={onSettings ? null : (current?.id ?? null)}
          focusId={focusId}
          onFocused={clearFocus}
          onSelect={select}
          onRename={rename}
          onDelete={remove}
          onFork={(id) => void fork(id)}
        />
        <div className="sidebar__footer">
          <button
            type="button"
            className={`nav-item${onSettings ? ' is-active' : ''}`}
            data-testid="nav-settings"
            aria-current={onSettings ? 'page' : undefined}
            onClick={() => navigate({ page: 'settings' })}
          >
            <GearIcon size={15} />
            <span>{t('shell.nav.settings')}</span>
          </button>
        </div>
      </nav>
      <main id="main" className="main" tabIndex={-1}>
        <ConnectionBanner api={api} />
        {actionError !== null && (
          <div className="main__toast">
            <ErrorNotice error={actionError} onDismiss={() => setActionError(null)} testId="action-error" />
          </div>
        )}
        {onSettings ? (
          <SettingsPage language={language} onLanguageChange={(l) => settings.setLanguage(l)} info={info} onRetryInfo={reloadInfo} />
        ) : state.status === 'loading' || seekId ? (
          <div className="main__center">
            <Spinner label={t('shell.state.loading')} size={22} />
          </div>
        ) : state.status === 'error' ? (
          <div className="main__center">
            <ErrorNotice error={state.error} title={t('shell.sessions.loadFailed')} onRetry={() => void sessions.load()} />
          </div>
        ) : current ? (
          <SessionView key={current.id} api={api} session={current} onSessionUpdated={sessions.upsert} onOpenSession={select} />
        ) : (
          <NewTaskView
            api={api}
            draft={draft}
            firstSession={list.length === 0}
            defaultWorkspace={info.status === 'ready' ? info.info.defaultWorkspace : null}
            onboarding={<Onboarding onSessionReady={onSessionReady} />}
            onStarted={started}
          />
        )}
      </main>
    </div>
  );
}

/**
 * A link to a session the loaded pages of the list do not hold: it is read on its own, and
 * returns the id while that read is on its way (null once it is in the list, or known gone).
 */
function useSeekSession(sessions: SessionsStore, id: string | null): string | null {
  const [gone, setGone] = useState<string | null>(null);
  const seeking = id !== null && id !== gone ? id : null;
  useEffect(() => {
    if (!seeking) return;
    let live = true;
    void sessions.fetch(seeking).then((found) => {
      if (live && !found) setGone(seeking);
    });
    return () => {
      live = false;
    };
  }, [sessions, seeking]);
  return seeking;
}
