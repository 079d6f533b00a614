import type { SystemInfo } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { Spinner } from '../../ui/Spinner';

export type InfoState = { status: 'loading' } | { status: 'ready'; info: SystemInfo } | { status: 'error'; error: unknown };

export function AboutSection({ state, onRetry }: { state: InfoState; onRetry: () => void }) {
  const t = useT();
  return (
    <section className="settings-card" aria-labelledby="about-heading">
      <h2 id="about-heading" className="settings-card__title">
        {t('shell.settings.about')}
      </h2>
      {state.status === 'loading' && <Spinner label={t('shell.state.loading')} />}
      {state.status === 'error' && <ErrorNotice error={state.error} onRetry={onRetry} />}
      {state.status === 'ready' && (
        <dl className="facts" data-testid="system-info">
          <dt>{t('shell.settings.version')}</dt>
          <dd className="mono">{state.info.version}</dd>
          <dt>{t('shell.settings.dataDir')}</dt>
          <dd className="mono">{state.info.dataDir}</dd>
          <dt>{t('shell.settings.defaultWorkspace')}</dt>
          <dd className="mono">{state.info.defaultWorkspace}</dd>
          <dt>{t('shell.settings.transport')}</dt>
          <dd>
            {state.info.transport === 'desktop' ? t('shell.settings.transportDesktop') : t('shell.settings.transportBrowser')}
          </dd>
        </dl>
      )}
    </section>
  );
}
