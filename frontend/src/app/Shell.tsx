import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Api, Session } from '../bridge';
import { createNewTaskStore } from '../features/composer/newTaskStore';
import { TakeFocusContext } from '../features/composer/takeFocus';
import { composerCommand } from '../features/keys/composerCommands';
import { ShortcutsSheet } from '../features/keys/ShortcutsSheet';
import { useGlobalKeys } from '../features/keys/useGlobalKeys';
import { useDecisionNotifications } from '../features/notify/useDecisionNotifications';
import { SessionSidebar } from '../features/sessions/SessionSidebar';
import { SideBySide } from '../features/sessions/SideBySide';
import type { SessionsStore } from '../features/sessions/sessionsStore';
import type { SettingsStore } from '../features/settings/settingsStore';
import { useThemeSetting } from '../features/settings/useThemeSetting';
import { useT } from '../i18n/I18nProvider';
import { ErrorNotice } from '../ui/ErrorNotice';
import { GearIcon, LogoMark } from '../ui/icons';
import { Part } from '../ui/Part';
import { Spinner } from '../ui/Spinner';
import { useStore } from '../ui/store';
import { ConnectionBanner } from './ConnectionBanner';
import { parseHash, routeHash, useRoute } from './route';
import { useSystemInfo } from './useSystemInfo';
import { newTaskPart, sessionViewPart, settingsPart } from './views';

export function Shell({ api, sessions, settings }: { api: Api; sessions: SessionsStore; settings: SettingsStore }) {
  const t = useT();
  const state = useStore(sessions);
  const { language } = useStore(settings);
  const [route, navigate] = useRoute();
  const [info, reloadInfo] = useSystemInfo(api);
  const [actionError, setActionError] = useState<unknown>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const newButtonRef = useRef<HTMLButtonElement>(null);
  const focusComposerOf = useFocusWhenDrawn();
  const draft = useMemo(() => createNewTaskStore(api), [api]);

  useThemeSetting();
  useDecisionNotifications();

  const list = state.sessions;
  const routed = route.page === 'session' ? list.find((s) => s.id === route.id) : undefined;
  const seekId = useSeekSession(sessions, route.page === 'session' && !routed && state.status === 'ready' ? route.id : null);
  // Home, or a session that no longer exists, shows the newest session; with none, a new task.
  const current = route.page === 'settings' || route.page === 'new' ? undefined : (routed ?? (seekId ? undefined : list[0]));

  const viewingId = current?.id ?? null;
  // The list is drawn on its own first: the session's view (its transcript, its composer) follows
  // once that frame is on screen, instead of holding the list back while it renders.
  // With no session there is no row to draw first: the new task's composer is drawn at once.
  const first = useListFirst(state.status === 'ready', viewingId, list.length === 0);
  const listPainted = first.painted;
  const takeFocus = !(first.focusKept && first.on === viewingId);
  useEffect(() => sessions.setViewing(viewingId), [sessions, viewingId]);

  // The address follows what is shown once the first screen is painted (a change of route before
  // that would draw the shell again in the frame that shows the list).
  useEffect(() => {
    if (state.status !== 'ready' || !listPainted || seekId || route.page === 'settings' || route.page === 'new') return;
    // The person moved on since this render (a click that came before its effects ran): what it
    // would show is no longer asked for.
    if (routeHash(parseHash(window.location.hash)) !== routeHash(route)) return;
    if (current && !(route.page === 'session' && route.id === current.id)) {
      navigate({ page: 'session', id: current.id }, { replace: true });
    } else if (!current) {
      // Nothing to show: the new task is a place of its own, so a session appearing while its
      // first message is on the way does not pull the view away from the draft.
      navigate({ page: 'new' }, { replace: true });
    }
  }, [state.status, listPainted, seekId, route, current, navigate]);

  const newTask = useCallback(() => {
    setActionError(null);
    navigate({ page: 'new' });
    focusNewTask();
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

  const [sheetOpen, setSheetOpen] = useState(false);
  useGlobalKeys({
    newSession: () => newTask(),
    settings: () => navigate({ page: 'settings' }),
    shortcuts: () => setSheetOpen(true),
    nextDecision: () => goToWaiting(1),
    previousDecision: () => goToWaiting(-1),
  });
  /** Opens the next (or previous) session in the list with a decision waiting, and puts the focus on it. */
  const goToWaiting = (step: 1 | -1) => {
    const waiting = list.filter((s) => s.waiting > 0);
    if (waiting.length === 0) return;
    const at = current ? list.findIndex((s) => s.id === current.id) : -1;
    const order = step === 1 ? [...list.slice(at + 1), ...list.slice(0, at + 1)] : [...list.slice(0, Math.max(at, 0)).reverse(), ...list.slice(Math.max(at, 0)).reverse()];
    const next = order.find((s) => waiting.includes(s));
    if (!next) return;
    if (next.id !== current?.id || route.page !== 'session') navigate({ page: 'session', id: next.id });
    focusComposerOf(next.id);
  };
  const clearFocus = useCallback(() => setFocusId(null), []);
  const onSessionReady = useCallback((id: string) => navigate({ page: 'session', id }), [navigate]);
  const onSettings = route.page === 'settings';
  const drafting = !onSettings && !current && !seekId && state.status === 'ready';
  const loading = (
    <div className="main__center">
      <Spinner label={t('shell.state.loading')} size={22} />
    </div>
  );

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
        <SideBySide api={api} sessions={state.sessions} selectedId={onSettings ? null : (current?.id ?? null)} onSelect={select} />
        <div className="sidebar__footer">
          <button
            type="button"
            className={`nav-item${onSettings ? ' is-active' : ''}`}
            data-testid="nav-settings"
            aria-current={onSettings ? 'page' : undefined}
            onClick={() => navigate({ page: 'settings' })}
            // The settings' code is loaded when the person heads for them, not with the first
            // screen: most launches never open them (a click still draws them: it waits for the
            // chunk, shown as the loading state, at most once).
            onPointerEnter={preloadSettings}
            onFocus={preloadSettings}
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
          <Part key="settings" part={settingsPart} fallback={loading}>
            {({ SettingsPage }) => (
              <SettingsPage language={language} onLanguageChange={(l) => settings.setLanguage(l)} info={info} onRetryInfo={reloadInfo} />
            )}
          </Part>
        ) : state.status === 'loading' || seekId || !listPainted ? (
          loading
        ) : state.status === 'error' ? (
          <div className="main__center">
            <ErrorNotice error={state.error} title={t('shell.sessions.loadFailed')} onRetry={() => void sessions.load()} />
          </div>
        ) : current ? (
          <TakeFocusContext.Provider value={takeFocus}>
            <Part key="session" part={sessionViewPart} fallback={loading}>
              {({ SessionView }) => (
                <SessionView key={current.id} api={api} session={current} onSessionUpdated={sessions.upsert} onOpenSession={select} />
              )}
            </Part>
          </TakeFocusContext.Provider>
        ) : (
          <TakeFocusContext.Provider value={takeFocus}>
            <Part key="new" part={newTaskPart} fallback={loading}>
              {({ NewTaskView, Onboarding }) => (
                <NewTaskView
                  api={api}
                  draft={draft}
                  firstSession={list.length === 0}
                  desktop={info.status === 'ready' && info.info.transport === 'desktop'}
                  onboarding={<Onboarding onSessionReady={onSessionReady} />}
                  onStarted={started}
                />
              )}
            </Part>
          </TakeFocusContext.Provider>
        )}
      </main>
      {sheetOpen && <ShortcutsSheet onClose={() => setSheetOpen(false)} />}
    </div>
  );
}

/**
 * Puts the focus in the composer of a session once its view is drawn (it may still be loading).
 * Returns what stops the wait: the shell calls it when it goes away or another wait starts.
 */
function focusWhenDrawn(id: string): () => void {
  let timer = 0;
  const attempt = (tries: number) => {
    const composer = [...document.querySelectorAll('[data-testid="session-view"]')]
      .find((v) => v.getAttribute('data-session-id') === id)
      ?.querySelector('[data-testid="composer"]');
    if (composer) composerCommand('focus');
    else if (tries > 0) timer = window.setTimeout(() => attempt(tries - 1), 50);
  };
  attempt(60);
  return () => window.clearTimeout(timer);
}

/** At most one wait for a composer to focus, stopped when the shell goes away. */
function useFocusWhenDrawn(): (id: string) => void {
  const stop = useRef<() => void>(() => undefined);
  useEffect(() => () => stop.current(), []);
  return useCallback((id: string) => {
    stop.current();
    stop.current = focusWhenDrawn(id);
  }, []);
}

const preloadSettings = () => void settingsPart.load().catch(() => undefined);

interface ListFirst {
  /** A frame drawn with the list has been painted: the main area may be drawn. */
  painted: boolean;
  /** By then the person had put the focus somewhere (in the list): the view drawn next leaves it there… */
  focusKept: boolean;
  /** …the view of this session (null: the new task), the one shown then. */
  on: string | null;
}

const focusIsPlaced = () => document.activeElement !== null && document.activeElement !== document.body;

/** The main area's wait for the first frame that shows the list (from then on it draws at once). */
function useListFirst(ready: boolean, viewingId: string | null, empty: boolean): ListFirst {
  const [waited, setFirst] = useState<ListFirst>({ painted: false, focusKept: false, on: null });
  const first = ready && empty && !waited.painted ? { painted: true, focusKept: false, on: null } : waited;
  const viewing = useRef(viewingId);
  viewing.current = viewingId;
  useEffect(() => {
    if (!ready || waited.painted) return;
    if (empty) {
      setFirst({ painted: true, focusKept: false, on: null });
      return;
    }
    let timer = 0;
    // A timer set in an animation frame fires after that frame is painted.
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setFirst({ painted: true, focusKept: focusIsPlaced(), on: viewing.current }), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [ready, waited.painted, empty]);
  return first;
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

/** Puts the focus in the new task's message box once it is drawn (its view may still be loading). */
function focusNewTask(tries = 60) {
  requestAnimationFrame(() => {
    const input = document.querySelector<HTMLElement>('[data-testid="new-task-composer"] [data-testid="composer-input"]') ?? document.querySelector<HTMLElement>('[data-testid="composer-input"]');
    if (input && document.querySelector('[data-testid="new-task-composer"]')) input.focus();
    else if (tries > 0) window.setTimeout(() => focusNewTask(tries - 1), 50);
  });
}
