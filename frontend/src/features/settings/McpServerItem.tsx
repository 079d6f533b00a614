import { useId, useRef, useState } from 'react';
import type { McpServer, McpTool } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';
import { useSettingsApi } from './settingsApiContext';
import { McpServerLog } from './McpServerLog';
import { useAction } from './useAction';

/** What a server runs: its URL, or its command line. */
function target(s: McpServer): string {
  return s.transport === 'http' ? (s.url ?? '') : [s.command ?? '', ...(s.args ?? [])].join(' ');
}

/** One server: where it runs, whether it is on, its tools and what waits for the person. */
export function McpServerItem({ server, onChanged }: { server: McpServer; onChanged: () => void }) {
  const t = useT();
  const api = useSettingsApi();
  const act = useAction(async (fn: () => Promise<unknown>) => {
    try {
      await fn();
    } finally {
      onChanged();
    }
  });
  const tools = server.tools ?? [];
  const [logOpen, setLogOpen] = useState(false);
  const logButton = useRef<HTMLButtonElement>(null);
  const logId = useId();
  const closeLog = () => {
    setLogOpen(false);
    logButton.current?.focus();
  };
  return (
    <li className="mcp-server" data-testid="mcp-server" data-name={server.name} data-enabled={server.enabled}>
      <div className="mcp-server__head">
        <strong className="mcp-server__name">{server.name}</strong>
        <span className={`badge badge--${server.enabled ? 'allow' : 'deny'}`} data-testid="mcp-server-enabled">
          {t(server.enabled ? 'settings.mcp.on' : 'settings.mcp.off')}
        </span>
        <span className="mcp-note">{t(`settings.mcp.transport.${server.transport}`)}</span>
        <span className="mcp-note">{server.workspace || t('settings.mcp.everyWorkspace')}</span>
        {server.network && <span className="mcp-note is-caution">{t('settings.mcp.networkOn')}</span>}
        <span className="mcp-note" data-testid="mcp-server-status">{t(`settings.mcp.status.${server.status.state}`)}</span>
      </div>
      <code className="mcp-server__target" title={target(server)}>{target(server)}</code>
      {server.status.problem && <p className="setting-row__error">{server.status.problem}</p>}
      <div className="mcp-server__actions">
        {server.enabled ? (
          <button type="button" className="btn btn--small" disabled={act.pending} onClick={() => void act.run(() => api.mcp.disable(server.id))}
            data-testid="mcp-disable">
            {t('settings.mcp.disable')}
          </button>
        ) : (
          <button type="button" className="btn btn--small" disabled={act.pending} onClick={() => void act.run(() => api.mcp.enable(server.id))}
            data-testid="mcp-enable">
            {t('settings.mcp.enable')}
          </button>
        )}
        <button type="button" className="btn btn--small btn--quiet-danger" disabled={act.pending}
          onClick={() => void act.run(() => api.mcp.remove(server.id))} data-testid="mcp-remove"
          aria-label={t('settings.mcp.removeNamed', { Name: server.name })}>
          {t('settings.mcp.remove')}
        </button>
        <button type="button" ref={logButton} className="btn btn--small" data-testid="mcp-log-open" aria-expanded={logOpen}
          aria-controls={logOpen ? logId : undefined} onClick={() => (logOpen ? closeLog() : setLogOpen(true))}>
          {t('settings.mcp.log.open')}
        </button>
      </div>
      {logOpen && <McpServerLog id={server.id} name={server.name} panelId={logId} onClose={closeLog} />}
      {act.error !== null && <p className="setting-row__error" role="alert">{describeError(act.error, t)}</p>}
      {tools.length > 0 && (
        <ul className="mcp-tools" data-testid="mcp-tools">
          {tools.map((tool) => (
            <McpToolRow key={tool.name} tool={tool} busy={act.pending}
              approve={() => void act.run(() => api.mcp.approve(server.id, tool.name, tool.seen ?? ''))}
              setOff={(off) => void act.run(() => api.mcp.setToolOff(server.id, tool.name, off))} />
          ))}
        </ul>
      )}
    </li>
  );
}

function McpToolRow({ tool, busy, approve, setOff }: { tool: McpTool; busy: boolean; approve: () => void; setOff: (off: boolean) => void }) {
  const t = useT();
  const waiting = tool.state === 'changed' || tool.state === 'new';
  return (
    <li className={`mcp-tool mcp-tool--${tool.state}`} data-testid="mcp-tool" data-tool={tool.name} data-state={tool.state}>
      <div className="mcp-tool__line">
        <code>{tool.name}</code>
        {tool.readOnly && <span className="mcp-note">{t('settings.mcp.readOnly')}</span>}
        <span className={`mcp-note${waiting ? ' is-caution' : ''}`}>{t(`settings.mcp.state.${tool.state}`)}</span>
        {waiting && (
          <button type="button" className="btn btn--small btn--primary" disabled={busy} onClick={approve} data-testid="mcp-tool-approve">
            {t(tool.state === 'changed' ? 'settings.mcp.approveChange' : 'settings.mcp.approveNew')}
          </button>
        )}
        {(tool.state === 'approved' || tool.state === 'off') && (
          <button type="button" className="btn btn--small" disabled={busy} onClick={() => setOff(tool.state === 'approved')}
            data-testid="mcp-tool-toggle">
            {t(tool.state === 'approved' ? 'settings.mcp.toolOff' : 'settings.mcp.toolOn')}
          </button>
        )}
      </div>
      {tool.description && <p className="setting-row__help">{tool.description}</p>}
      {tool.state === 'changed' && tool.diff && (
        <pre className="mcp-diff" data-testid="mcp-tool-diff" aria-label={t('settings.mcp.diff')}>
          {tool.diff.map((l, i) => (
            <span key={i} className={l.op === '+' ? 'is-added' : l.op === '-' ? 'is-removed' : undefined}>
              {`${l.op} ${l.text}\n`}
            </span>
          ))}
        </pre>
      )}
    </li>
  );
}
