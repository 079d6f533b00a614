import type { Settings } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { tOr } from './toolLabel';

/** The model the next turn uses, with its provider; a quiet label, not a control. */
export function ModelLabel({ provider }: { provider: Settings['provider'] | null }) {
  const t = useT();
  if (!provider) return null;
  const kind = provider.kind ? tOr(t, `composer.provider.${provider.kind}`, provider.kind) : '';
  const text = provider.model ? (kind ? `${kind} · ${provider.model}` : provider.model) : kind || t('composer.provider.none');
  return (
    <span className="model-label" data-testid="model-label" title={t('composer.provider.title')}>
      {text}
    </span>
  );
}
