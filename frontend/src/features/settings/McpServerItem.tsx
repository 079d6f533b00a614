import { useId, useRef, useState, type FormEvent } from 'react';
import { BridgeError } from '../../bridge';
import type { McpConfig, McpServer, McpTool } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { splitCommandLine } from './commandLine';
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
  // A server that is off with tools listed: they are shown for review, and enabling it pins them as shown.
  const reviewing = !server.enabled && tools.some((x) => x.seen);
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
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
      {editing ? (
        <McpEditForm server={server} onDone={(saved) => {
          setEditing(false);
          if (saved) onChanged();
          editButton.current?.focus();
        }} />
      ) : (
        <code className="mcp-server__target" title={target(server)}>{target(server)}</code>
      )}
      {server.status.state === 'failed' && (server.status.code || server.status.problem) && (
        <ErrorNotice testId="mcp-server-problem"
          error={new BridgeError(server.status.code || 'MCP_SERVER_UNAVAILABLE', server.status.code ? '' : (server.status.problem ?? ''), server.status.args ?? {})} />
      )}
      {reviewing && (
        <p className="setting-row__help" data-testid="mcp-review-help">{t('settings.mcp.reviewHelp', { Count: tools.length })}</p>
      )}
      <div className="mcp-server__actions">
        {server.enabled ? (
          <button type="button" className="btn btn--small" disabled={act.pending} onClick={() => void act.run(() => api.mcp.disable(server.id))}
            data-testid="mcp-disable">
            {t('settings.mcp.disable')}
          </button>
        ) : (
          <button type="button" className={`btn btn--small${reviewing ? ' btn--primary' : ''}`} disabled={act.pending}
            onClick={() => void act.run(() => api.mcp.enable(server.id, reviewed(tools)))} data-testid="mcp-enable">
            {reviewing ? t('settings.mcp.enableReviewed', { Count: tools.length }) : t('settings.mcp.enable')}
          </button>
        )}
        <button type="button" ref={editButton} className="btn btn--small" disabled={act.pending || editing} onClick={() => setEditing(true)}
          data-testid="mcp-edit" aria-label={t('settings.mcp.editNamed', { Name: server.name })}>
          {t('settings.mcp.edit')}
        </button>
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
      {act.error !== null && <ErrorNotice error={act.error} testId="mcp-server-error" />}
      {tools.length > 0 && (
        <ul className="mcp-tools" data-testid="mcp-tools">
          {tools.map((tool) => (
            <McpToolRow key={tool.name} tool={tool} busy={act.pending} serverOn={server.enabled}
              approve={() => void act.run(() => api.mcp.approve(server.id, tool.name, tool.seen ?? ''))}
              setOff={(off) => void act.run(() => api.mcp.setToolOff(server.id, tool.name, off))} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** What enabling a server pins: each tool listed, with the definition the person was shown. */
function reviewed(tools: McpTool[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const x of tools) if (x.seen) out[x.name] = x.seen;
  return Object.keys(out).length ? out : undefined;
}

/** Fixes what a server runs in place: its command line, or its URL. */
function McpEditForm({ server, onDone }: { server: McpServer; onDone: (saved: boolean) => void }) {
  const t = useT();
  const api = useSettingsApi();
  const [value, setValue] = useState(target(server));
  const save = useAction(async () => {
    const base: McpConfig = { name: server.name, transport: server.transport, workspace: server.workspace, env: server.env, headers: server.headers, network: server.network };
    const config: McpConfig = { ...base, ...(server.transport === 'http' ? { url: value.trim() } : splitCommandLine(value)) };
    await api.mcp.edit(server.id, config);
  });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await save.run()) onDone(true);
  };
  const label = server.transport === 'http' ? t('settings.mcp.url') : t('settings.mcp.command');
  return (
    <form className="mcp-edit" onSubmit={(e) => void submit(e)} data-testid="mcp-edit-form">
      <div className="mcp-add__row">
        <input className="input mono" aria-label={label} value={value} onChange={(e) => setValue(e.target.value)} data-testid="mcp-edit-target" />
        <button type="submit" className="btn btn--small btn--primary" disabled={save.pending || !value.trim()} data-testid="mcp-edit-save">
          {t('settings.mcp.editSave')}
        </button>
        <button type="button" className="btn btn--small" disabled={save.pending} onClick={() => onDone(false)} data-testid="mcp-edit-cancel">
          {t('settings.mcp.editCancel')}
        </button>
      </div>
      <p className="setting-row__help">{t('settings.mcp.editHelp')}</p>
      {save.error !== null && <ErrorNotice error={save.error} testId="mcp-edit-error" />}
    </form>
  );
}

function McpToolRow({ tool, busy, serverOn, approve, setOff }: { tool: McpTool; busy: boolean; serverOn: boolean; approve: () => void; setOff: (off: boolean) => void }) {
  const t = useT();
  // On a server that is off, a listed tool is under review: enabling the server approves it.
  const waiting = serverOn && (tool.state === 'changed' || tool.state === 'new');
  return (
    <li className={`mcp-tool mcp-tool--${tool.state}`} data-testid="mcp-tool" data-tool={tool.name} data-state={tool.state}>
      <div className="mcp-tool__line">
        <code>{tool.name}</code>
        {tool.readOnly && <span className="mcp-note">{t('settings.mcp.readOnly')}</span>}
        <span className={`mcp-note${waiting ? ' is-caution' : ''}`}>{t(!serverOn && tool.state === 'new' ? 'settings.mcp.state.review' : `settings.mcp.state.${tool.state}`)}</span>
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
