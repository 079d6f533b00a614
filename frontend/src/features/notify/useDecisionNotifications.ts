import { useEffect, useRef } from 'react';
import type { AskedDecision } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import type { TFunction } from '../../i18n/translate';
import { useSettingsApi } from '../settings/settingsApiContext';
import { browserNotifyEnv, createDecisionNotifier, type NotificationText, type NotifyEnv } from './decisionNotifier';

const MAX_BODY = 160;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_BODY ? `${flat.slice(0, MAX_BODY - 1)}…` : flat;
}

/** The browser notification's words: what kind of decision, and its command, question or plan title. */
export function notificationText(d: AskedDecision, t: TFunction): NotificationText {
  const p = d.payload ?? {};
  const detail =
    d.kind === 'approval'
      ? p.summary || p.command || p.path
      : d.kind === 'question'
        ? p.question
        : d.kind === 'elicitation'
          ? p.message
          : d.kind === 'sampling'
            ? p.messages?.[p.messages.length - 1]?.text
            : d.kind === 'continue'
              ? t('composer.continue.title', { Count: p.steps })
              : p.title;
  // Every kind the app knows has its own title (a test holds the locales to it); one from a newer
  // backend gets the general one.
  const own = `notify.title.${d.kind}`;
  const title = t(own);
  return {
    title: title === own ? t('notify.title.other') : title,
    body: detail ? clip(detail) : t('notify.body.default'),
  };
}

/**
 * Call once in the shell: when a decision is asked while this window is unfocused or hidden, a
 * desktop notification says so (via the Go side in the desktop window, the Notification API in a
 * browser). `env` is for tests.
 */
export function useDecisionNotifications(env?: NotifyEnv): void {
  const api = useSettingsApi();
  const t = useT();
  const tRef = useRef(t);
  useEffect(() => {
    tRef.current = t;
  }, [t]);

  useEffect(() => {
    const notifier = createDecisionNotifier(api, env ?? browserNotifyEnv(), (d) => notificationText(d, tRef.current));
    return notifier.start();
  }, [api, env]);
}
