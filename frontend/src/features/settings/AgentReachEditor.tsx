import { useId, useState } from 'react';
import type { AgentReachView } from '../../bridge/generated';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';
import type { AppSettingsStore } from './appSettingsStore';
import { useSettingsApi } from './settingsApiContext';
import { useAction } from './useAction';

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * What one external agent may reach from inside the sandbox: the hosts its model traffic goes to
 * (through AgentDesk's proxy, nothing else) and the folders where it keeps its own state. Shown
 * folded under the agent; the defaults come from its name until the person saves their own.
 */
export function AgentReachEditor({ reach, store }: { reach: AgentReachView; store: AppSettingsStore }) {
  const t = useT();
  const api = useSettingsApi();
  const id = useId();
  const [hosts, setHosts] = useState((reach.hosts ?? []).join('\n'));
  const [folders, setFolders] = useState((reach.folders ?? []).join('\n'));
  const save = useAction(async (reset: boolean) => {
    const view = await api.settings.setAgentReach({ command: reach.command, hosts: lines(hosts), folders: lines(folders), reset });
    store.apply(view);
    const next = view.agentReach?.find((r) => r.command === reach.command);
    if (next) {
      setHosts((next.hosts ?? []).join('\n'));
      setFolders((next.folders ?? []).join('\n'));
    }
  });
  return (
    <details className="agent-reach" data-testid="agent-reach">
      <summary>{t(reach.saved ? 'settings.agents.reach.summarySaved' : 'settings.agents.reach.summary')}</summary>
      <p className="agent-reach__help">{t('settings.agents.reach.help')}</p>
      <label htmlFor={`${id}-hosts`}>{t('settings.agents.reach.hosts')}</label>
      <textarea
        id={`${id}-hosts`}
        className="input mono"
        rows={3}
        spellCheck={false}
        value={hosts}
        data-testid="agent-reach-hosts"
        onChange={(e) => setHosts(e.target.value)}
      />
      <label htmlFor={`${id}-folders`}>{t('settings.agents.reach.folders')}</label>
      <textarea
        id={`${id}-folders`}
        className="input mono"
        rows={3}
        spellCheck={false}
        value={folders}
        data-testid="agent-reach-folders"
        onChange={(e) => setFolders(e.target.value)}
      />
      <div className="agent-reach__actions">
        <button type="button" className="btn btn--small" disabled={save.pending} data-testid="agent-reach-save" onClick={() => void save.run(false)}>
          {t('settings.agents.reach.save')}
        </button>
        {reach.saved && (
          <button type="button" className="btn btn--small btn--quiet" disabled={save.pending} data-testid="agent-reach-reset" onClick={() => void save.run(true)}>
            {t('settings.agents.reach.reset')}
          </button>
        )}
      </div>
      {save.error !== null && (
        <p className="field-error" role="alert" data-testid="agent-reach-error">
          {describeError(save.error, t)}
        </p>
      )}
    </details>
  );
}
