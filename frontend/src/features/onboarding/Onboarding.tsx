import { useEffect, useRef } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { useEntersAnimated } from '../../ui/firstScreen';
import { LogoMark } from '../../ui/icons';
import { useAppSettings } from '../settings/appSettingsStore';
import { SetupPaths } from './SetupPaths';
import './onboarding.css';

/**
 * First run: with no usable provider, three calm ways to start — an API key, a local server, or the
 * offline demo. Renders nothing once Settings.providerReady is true (or while settings load).
 */
export default function Onboarding({ onSessionReady }: { onSessionReady(sessionId: string): void }) {
  const t = useT();
  const [{ settings }] = useAppSettings();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const enters = useEntersAnimated();
  const show = settings !== null && !settings.providerReady;

  useEffect(() => {
    if (show && !headingRef.current?.contains(document.activeElement)) headingRef.current?.focus({ preventScroll: true });
  }, [show]);

  if (!show) return null;
  return (
    <div className={enters ? 'onboarding onboarding--enter' : 'onboarding'} data-testid="onboarding">
      <header className="onboarding__header">
        <div className="onboarding__mark">
          <LogoMark size={26} />
        </div>
        <h1 ref={headingRef} className="onboarding__title" tabIndex={-1}>
          {t('onboarding.title')}
        </h1>
        <p className="onboarding__subtitle">{t('onboarding.subtitle')}</p>
      </header>
      <SetupPaths onDemoStarted={onSessionReady} />
    </div>
  );
}
