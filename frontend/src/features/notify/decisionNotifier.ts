import type { AskedDecision, SettingsApi } from '../../bridge/settingsApi';
import type { Unsubscribe } from '../../bridge/transport';

/** The parts of the Notification API the notifier uses; injectable for tests. */
export interface WebNotification {
  onclick: ((this: unknown, ev: Event) => unknown) | null;
  close(): void;
}
export interface WebNotificationApi {
  readonly permission: NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  new (title: string, options?: NotificationOptions): WebNotification;
}

/** The window around the notifier; injectable for tests. */
export interface NotifyEnv {
  /** True when the person is not looking at this window (unfocused or hidden). */
  isAway(): boolean;
  /** The browser's Notification API, or undefined where there is none. */
  Notification: WebNotificationApi | undefined;
  /** Brings the window forward on the session the decision belongs to. */
  openSession(sessionId: string): void;
  /** Calls back when the window gets focus again. */
  onFocus(cb: () => void): Unsubscribe;
}

export interface NotificationText {
  title: string;
  body: string;
}

export function browserNotifyEnv(): NotifyEnv {
  return {
    isAway: () => document.visibilityState === 'hidden' || !document.hasFocus(),
    Notification: typeof Notification === 'undefined' ? undefined : (Notification as unknown as WebNotificationApi),
    openSession(sessionId) {
      window.focus();
      window.location.hash = `#/session/${encodeURIComponent(sessionId)}`;
    },
    onFocus(cb) {
      window.addEventListener('focus', cb);
      return () => window.removeEventListener('focus', cb);
    },
  };
}

/**
 * Tells the person a decision waits while they look elsewhere (R-UI-1). In the desktop window the Go
 * side builds the OS notification (System.NotifyDecision); in a browser the Notification API does,
 * asking for permission the first time it is needed and staying quiet when it is refused.
 */
export function createDecisionNotifier(api: SettingsApi, env: NotifyEnv, describe: (d: AskedDecision) => NotificationText) {
  let surface: Promise<'desktop' | 'browser'> | null = null;
  let permission: Promise<boolean> | null = null;
  const waiting = new Set<string>();
  const shown = new Map<string, WebNotification>();

  const whereAmI = () =>
    (surface ??= api.system.info().then(
      (info) => (info.transport === 'desktop' ? 'desktop' : 'browser'),
      () => 'browser' as const,
    ));

  function mayNotify(N: WebNotificationApi): Promise<boolean> | boolean {
    if (N.permission === 'granted') return true;
    if (N.permission === 'denied') return false;
    // Ask once per page; a dismissed prompt is not repeated for every decision.
    permission ??= Promise.resolve()
      .then(() => N.requestPermission())
      .then(
        (p) => p === 'granted',
        () => false,
      );
    return permission;
  }

  async function onAsked(d: AskedDecision) {
    if (!d?.id || !env.isAway()) return;
    waiting.add(d.id);
    if ((await whereAmI()) === 'desktop') {
      await api.system.notifyDecision(d.id).catch(() => undefined);
      return;
    }
    const N = env.Notification;
    if (!N || !(await mayNotify(N))) return;
    // The answer may have come (or the person come back) while permission was asked.
    if (!waiting.has(d.id) || !env.isAway()) return;
    const { title, body } = describe(d);
    const n = new N(title, { body, tag: d.id });
    n.onclick = () => {
      env.openSession(d.sessionId);
      n.close();
    };
    shown.set(d.id, n);
  }

  function onResolved(id: string) {
    waiting.delete(id);
    shown.get(id)?.close();
    shown.delete(id);
  }

  function closeAll() {
    for (const n of shown.values()) n.close();
    shown.clear();
  }

  return {
    start(): Unsubscribe {
      const offs = [
        api.decisions.onAsked((d) => void onAsked(d)),
        api.decisions.onResolved((r) => onResolved(r?.id)),
        env.onFocus(closeAll),
      ];
      return () => {
        offs.forEach((off) => off());
        closeAll();
      };
    },
  };
}
