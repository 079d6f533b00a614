import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { McpLog } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';
import { Spinner } from '../../ui/Spinner';
import { useSettingsApi } from './settingsApiContext';

type LogState = { status: 'loading' } | { status: 'ready'; log: McpLog } | { status: 'error'; error: unknown };

/** A server's log, read when opened and on Refresh; it opens at the bottom, where the newest lines are. */
export function McpServerLog({ id, name, panelId, onClose }: { id: string; name: string; panelId: string; onClose: () => void }) {
  const t = useT();
  const api = useSettingsApi();
  const [state, setState] = useState<LogState>({ status: 'loading' });
  // A refresh keeps the text shown until the new one arrives; only its button says it is reading.
  const [reading, setReading] = useState(true);
  const textRef = useRef<HTMLPreElement>(null);
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );

  const load = useCallback(() => {
    setState((s) => (s.status === 'ready' ? s : { status: 'loading' }));
    setReading(true);
    api.mcp
      .log(id)
      .then(
        (log) => alive.current && setState({ status: 'ready', log: { path: log?.path ?? '', text: log?.text ?? '', truncated: Boolean(log?.truncated) } }),
        (error: unknown) => alive.current && setState({ status: 'error', error }),
      )
      .finally(() => alive.current && setReading(false));
  }, [api, id]);
  useEffect(load, [load]);

  const log = state.status === 'ready' ? state.log : null;
  useLayoutEffect(() => {
    const el = textRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [log]);

  return (
    <section id={panelId} className="mcp-log" data-testid="mcp-log" aria-label={t('settings.mcp.log.title', { Name: name })}>
      {state.status === 'loading' && <Spinner label={t('settings.mcp.log.loading')} size={14} />}
      {state.status === 'error' && (
        <p className="setting-row__error" role="alert" data-testid="mcp-log-error">
          {describeError(state.error, t)}
        </p>
      )}
      {log && (
        <>
          <label className="mcp-log__path">
            <span>{t('settings.mcp.log.path')}</span>
            <input className="input mono" data-testid="mcp-log-path" readOnly value={log.path} onFocus={(e) => e.currentTarget.select()} />
          </label>
          {log.truncated && (
            <p className="mcp-note" data-testid="mcp-log-truncated">
              {t('settings.mcp.log.truncated')}
            </p>
          )}
          {log.text ? (
            // Focusable, so the keyboard can scroll it.
            <pre ref={textRef} className="mcp-log__text mono" data-testid="mcp-log-text" tabIndex={0}>
              {log.text}
            </pre>
          ) : (
            <p className="mcp-note" data-testid="mcp-log-empty">
              {t('settings.mcp.log.empty')}
            </p>
          )}
        </>
      )}
      <div className="mcp-server__actions">
        <button type="button" className="btn btn--small" data-testid="mcp-log-refresh" onClick={load} disabled={reading}>
          {t('settings.mcp.log.refresh')}
        </button>
        <button type="button" className="btn btn--small" data-testid="mcp-log-close" onClick={onClose}>
          {t('settings.mcp.log.close')}
        </button>
      </div>
    </section>
  );
}
