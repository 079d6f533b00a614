import type { SettingsView } from '../../bridge/generated';
import { useState } from 'react';
import type { LocalServer } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';
import { Spinner } from '../../ui/Spinner';
import { useSettingsApi } from '../settings/settingsApiContext';
import { useAction } from '../settings/useAction';
import { ServerIcon } from '../../ui/icons';
import { PathCard } from './PathCard';

const MAX_MODELS = 6;

function ServerResult({
  server,
  busy,
  onUse,
}: {
  server: LocalServer;
  busy: boolean;
  onUse: (model: string) => void;
}) {
  const t = useT();
  const models = (server.models ?? []).slice(0, MAX_MODELS);
  return (
    <li className="local-server" data-testid="local-server" data-ok={server.ok}>
      <div className="local-server__head">
        <span className={`status-dot status-dot--${server.ok ? 'on' : 'off'}`} aria-hidden="true" />
        <span className="local-server__name">{server.name}</span>
        <span className="local-server__state">
          {server.ok ? t('onboarding.local.running') : t('onboarding.local.notRunning')}
        </span>
      </div>
      <span className="local-server__url mono">{server.baseUrl}</span>
      {server.ok &&
        (models.length === 0 ? (
          <p className="path-form__note">{t('onboarding.local.noModels')}</p>
        ) : (
          <div className="model-list" role="group" aria-label={t('onboarding.local.modelsOf', { Server: server.name })}>
            {models.map((m) => (
              <button
                key={m}
                type="button"
                className="chip model-chip"
                disabled={busy}
                title={t('onboarding.local.use', { Model: m, Server: server.name })}
                aria-label={t('onboarding.local.use', { Model: m, Server: server.name })}
                data-testid="local-model"
                onClick={() => onUse(m)}
              >
                {m}
              </button>
            ))}
            {(server.models ?? []).length > MAX_MODELS && (
              <span className="model-list__more">{t('onboarding.local.more', { Count: (server.models ?? []).length - MAX_MODELS })}</span>
            )}
          </div>
        ))}
    </li>
  );
}

/** Path two: an OpenAI-compatible server on this computer (Ollama, LM Studio), probed on loopback. */
export function LocalServerPath({ onSaved }: { onSaved: (settings: SettingsView) => void }) {
  const t = useT();
  const api = useSettingsApi();
  const [servers, setServers] = useState<LocalServer[] | null>(null);
  const probe = useAction(async () => setServers(await api.settings.probeLocal()));
  const use = useAction(async (server: LocalServer, model: string) =>
    onSaved(await api.settings.setProvider({ kind: 'openai', baseUrl: server.baseUrl, model })),
  );
  const anyRunning = servers?.some((s) => s.ok) ?? false;
  const error = probe.error ?? use.error;

  return (
    <PathCard id="local" icon={<ServerIcon />} title={t('onboarding.local.title')} text={t('onboarding.local.text')}>
      {servers && (
        <ul className="local-servers" aria-live="polite" data-testid="local-servers">
          {servers.map((s) => (
            <ServerResult key={s.name} server={s} busy={use.pending} onUse={(m) => void use.run(s, m)} />
          ))}
        </ul>
      )}
      {servers && !anyRunning && <p className="path-form__note">{t('onboarding.local.noneRunning')}</p>}
      {error !== null && (
        <p className="field-error" role="alert" data-testid="onboarding-local-error">
          {describeError(error, t)}
        </p>
      )}
      <button
        type="button"
        className="btn path-card__action"
        disabled={probe.pending}
        onClick={() => void probe.run()}
        data-testid="onboarding-probe"
      >
        {probe.pending && <Spinner label={t('onboarding.local.probing')} size={14} />}
        {probe.pending
          ? t('onboarding.local.probing')
          : servers
            ? t('onboarding.local.again')
            : t('onboarding.local.probe')}
      </button>
    </PathCard>
  );
}
