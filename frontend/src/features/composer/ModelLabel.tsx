import type { Settings } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import type { TFunction } from '../../i18n/translate';
import { agentName } from './RuntimePicker';
import { tOr } from './toolLabel';
import type { RunsOnSettings } from './useProviderLabel';

/** What runs the session's turns, for its label. */
export interface RunsOn {
  demo?: boolean;
  externalAgent?: string;
}

/** The label's words: the demo, the session's external agent, the command line's provider, else Settings'. */
export function modelLabelText(t: TFunction, settings: RunsOnSettings | null, session: RunsOn | null): string | null {
  if (session?.demo) return t('composer.provider.demo');
  if (session?.externalAgent) return agentName(session.externalAgent);
  const line = settings?.commandLine;
  if (line?.kind) {
    const kind = tOr(t, `composer.provider.${line.kind}`, line.kind);
    return line.model ? `${kind} · ${line.model}` : kind;
  }
  const provider = settings?.provider;
  if (!provider) return null;
  if (!provider.kind || provider.kind === 'demo' || settings?.providerReady === false) {
    return provider.kind && provider.kind !== 'demo' ? t('composer.provider.notReady') : t('composer.provider.none');
  }
  const kind = tOr(t, `composer.provider.${provider.kind}`, provider.kind);
  return provider.model ? `${kind} · ${provider.model}` : kind;
}

/** The model the next turn uses, with its provider; a quiet label, not a control. */
export function ModelLabel({ settings, session = null }: { settings: Settings | null; session?: RunsOn | null }) {
  const t = useT();
  const text = modelLabelText(t, settings, session);
  if (text === null) return null;
  return (
    <span className="model-label" data-testid="model-label" title={t('composer.provider.title')}>
      {text}
    </span>
  );
}
