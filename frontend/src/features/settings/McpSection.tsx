import { useCallback, useId, useState, type FormEvent } from 'react';
import type { McpConfig, McpImportItem, McpImportResult } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import { BridgeError } from '../../bridge';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { Spinner } from '../../ui/Spinner';
import { splitCommandLine } from './commandLine';
import { McpServerItem } from './McpServerItem';
import { SettingsSection } from './SettingsSection';
import { useSettingsApi } from './settingsApiContext';
import { useAction } from './useAction';
import { useLiveLoad } from './useLiveLoad';
import './mcp.css';

export { splitCommandLine } from './commandLine';

/**
 * The MCP servers (stdio and Streamable HTTP), for every workspace or one: adding one starts it once
 * to list its tools for review, and enabling it pins the tools as reviewed; a tool that changes later shows its diff here and stays
 * off until approved. A workspace's .mcp.json is imported only after the person reviews it.
 */
export function McpSection() {
  const t = useT();
  const api = useSettingsApi();
  const { state, refresh } = useLiveLoad(
    useCallback(() => api.mcp.list(), [api]),
    useCallback((load: () => void) => [api.mcp.onChanged(load), api.onReconnect(load)], [api]),
  );

  return (
    <SettingsSection id="mcp" title={t('settings.mcp.title')} description={t('settings.mcp.description')} testId="mcp-section">
      {state.status === 'loading' && <Spinner label={t('shell.state.loading')} />}
      {state.status === 'error' && <ErrorNotice error={state.error} testId="mcp-error" />}
      {state.status === 'ready' &&
        (state.value.length === 0 ? (
          <p className="setting-row__help" data-testid="mcp-empty">
            {t('settings.mcp.empty')}
          </p>
        ) : (
          <ul className="mcp-list" data-testid="mcp-list">
            {state.value.map((s) => (
              <McpServerItem key={s.id} server={s} onChanged={refresh} />
            ))}
          </ul>
        ))}
      <McpAddForm onAdded={refresh} />
      <McpImport onImported={refresh} />
      <McpRuleForm />
    </SettingsSection>
  );
}

function McpAddForm({ onAdded }: { onAdded: () => void }) {
  const t = useT();
  const api = useSettingsApi();
  const id = useId();
  const [name, setName] = useState('');
  const [transport, setTransport] = useState<'stdio' | 'http'>('stdio');
  const [target, setTarget] = useState('');
  const [workspace, setWorkspace] = useState('');
  const [network, setNetwork] = useState(false);
  const add = useAction(async (cfg: McpConfig) => {
    try {
      await api.mcp.add(cfg);
    } finally {
      onAdded(); // a server that could not start is still listed, switched off
    }
  });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const cfg: McpConfig = { name: name.trim(), transport, ...(workspace.trim() ? { workspace: workspace.trim() } : {}) };
    if (transport === 'http') cfg.url = target.trim();
    else Object.assign(cfg, splitCommandLine(target), { network });
    if (await add.run(cfg)) {
      setName('');
      setTarget('');
    }
  };
  return (
    <form className="mcp-add" onSubmit={(e) => void submit(e)} data-testid="mcp-add">
      <p className="setting-row__title">{t('settings.mcp.addTitle')}</p>
      <div className="mcp-add__row">
        <input className="input" aria-label={t('settings.mcp.name')} placeholder={t('settings.mcp.name')} value={name}
          onChange={(e) => setName(e.target.value)} data-testid="mcp-add-name" />
        <select className="input" aria-label={t('settings.mcp.transport')} value={transport}
          onChange={(e) => setTransport(e.target.value as 'stdio' | 'http')} data-testid="mcp-add-transport">
          <option value="stdio">{t('settings.mcp.transport.stdio')}</option>
          <option value="http">{t('settings.mcp.transport.http')}</option>
        </select>
      </div>
      <input id={`${id}-target`} className="input mono" value={target} onChange={(e) => setTarget(e.target.value)}
        aria-label={transport === 'http' ? t('settings.mcp.url') : t('settings.mcp.command')}
        placeholder={transport === 'http' ? 'https://example.com/mcp' : 'npx -y @modelcontextprotocol/server-everything'}
        data-testid="mcp-add-target" />
      <input className="input mono" value={workspace} onChange={(e) => setWorkspace(e.target.value)}
        aria-label={t('settings.mcp.workspace')} placeholder={t('settings.mcp.workspacePlaceholder')} data-testid="mcp-add-workspace" />
      {transport === 'stdio' && (
        <label className="fn-field fn-field--check">
          <input type="checkbox" checked={network} onChange={(e) => setNetwork(e.target.checked)} data-testid="mcp-add-network" />
          <span>{t('settings.mcp.network')}</span>
        </label>
      )}
      <p className="setting-row__help">{t('settings.mcp.addHelp')}</p>
      {add.error !== null && <ErrorNotice error={add.error} testId="mcp-add-error" />}
      <button type="submit" className="btn btn--primary btn--small" disabled={add.pending || !name.trim() || !target.trim()} data-testid="mcp-add-submit">
        {add.pending ? <Spinner label={t('settings.mcp.adding')} size={12} /> : t('settings.mcp.add')}
      </button>
    </form>
  );
}

/** Review a workspace's .mcp.json, then import the servers the person ticks. */
function McpImport({ onImported }: { onImported: () => void }) {
  const t = useT();
  const api = useSettingsApi();
  const [workspace, setWorkspace] = useState('');
  const [items, setItems] = useState<McpImportItem[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [failures, setFailures] = useState<McpImportResult[]>([]);
  const preview = useAction(async () => {
    const list = await api.mcp.preview(workspace.trim());
    setItems(list);
    setChosen(list.filter((i) => !i.problem && !i.exists).map((i) => i.config.name));
  });
  const confirm = useAction(async () => {
    const res = await api.mcp.import(workspace.trim(), chosen);
    setFailures(res.filter((r) => r.error));
    setItems(null);
    onImported();
  });
  const toggle = (name: string) => setChosen((c) => (c.includes(name) ? c.filter((x) => x !== name) : [...c, name]));
  return (
    <div className="mcp-import" data-testid="mcp-import">
      <p className="setting-row__title">{t('settings.mcp.importTitle')}</p>
      <p className="setting-row__help">{t('settings.mcp.importHelp')}</p>
      <div className="mcp-add__row">
        <input className="input mono" value={workspace} onChange={(e) => setWorkspace(e.target.value)}
          aria-label={t('settings.mcp.workspace')} placeholder="/home/you/project" data-testid="mcp-import-workspace" />
        <button type="button" className="btn btn--small" disabled={!workspace.trim() || preview.pending} onClick={() => void preview.run()}
          data-testid="mcp-import-review">
          {t('settings.mcp.importReview')}
        </button>
      </div>
      {preview.error !== null && <ErrorNotice error={preview.error} testId="mcp-import-error" />}
      {items && items.length === 0 && <p className="setting-row__help" data-testid="mcp-import-none">{t('settings.mcp.importNone')}</p>}
      {items && items.length > 0 && (
        <ul className="mcp-import__list" data-testid="mcp-import-list">
          {items.map((it) => (
            <li key={it.config.name} data-testid="mcp-import-item">
              <label className="fn-field fn-field--check">
                <input type="checkbox" checked={chosen.includes(it.config.name)} disabled={Boolean(it.problem || it.exists)}
                  onChange={() => toggle(it.config.name)} />
                <span>
                  <strong>{it.config.name}</strong>{' '}
                  <code>{it.config.url || [it.config.command, ...(it.config.args ?? [])].join(' ')}</code>
                  {it.problem && <span className="mcp-note is-caution"> · {it.problem}</span>}
                  {it.exists && <span className="mcp-note"> · {t('settings.mcp.importExists')}</span>}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {items && chosen.length > 0 && (
        <button type="button" className="btn btn--primary btn--small" disabled={confirm.pending} onClick={() => void confirm.run()}
          data-testid="mcp-import-confirm">
          {t('settings.mcp.importConfirm', { Count: chosen.length })}
        </button>
      )}
      {failures.map((f) => (
        <ErrorNotice key={f.name} title={f.name} testId="mcp-import-failure"
          error={new BridgeError(f.error?.kind ?? 'INTERNAL', f.error?.message ?? '', f.error?.args ?? {})} />
      ))}
    </div>
  );
}

/** An always-allow or deny rule on an MCP tool or server, listed with the other rules. */
function McpRuleForm() {
  const t = useT();
  const api = useSettingsApi();
  const [rule, setRule] = useState('');
  const save = useAction(async (effect: 'allow' | 'deny') => {
    await api.mcp.addRule(effect, rule.trim());
    setRule('');
  });
  return (
    <div className="mcp-rule" data-testid="mcp-rule">
      <p className="setting-row__title">{t('settings.mcp.ruleTitle')}</p>
      <p className="setting-row__help">{t('settings.mcp.ruleHelp')}</p>
      <div className="mcp-add__row">
        <input className="input mono" value={rule} onChange={(e) => setRule(e.target.value)} placeholder="mcp:server/tool"
          aria-label={t('settings.mcp.ruleTitle')} data-testid="mcp-rule-input" />
        <button type="button" className="btn btn--small" disabled={!rule.trim() || save.pending} onClick={() => void save.run('allow')}
          data-testid="mcp-rule-allow">
          {t('settings.rules.effect.allow')}
        </button>
        <button type="button" className="btn btn--small btn--quiet-danger" disabled={!rule.trim() || save.pending}
          onClick={() => void save.run('deny')} data-testid="mcp-rule-deny">
          {t('settings.rules.effect.deny')}
        </button>
      </div>
      {save.error !== null && <ErrorNotice error={save.error} testId="mcp-rule-error" />}
    </div>
  );
}
