import { useEffect, useRef } from 'react';
import type { Language } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { AboutSection, type InfoState } from './AboutSection';
import { LanguagePicker } from './LanguagePicker';

export function SettingsPage({
  language,
  onLanguageChange,
  info,
  onRetryInfo,
}: {
  language: Language;
  onLanguageChange: (lang: Language) => Promise<void>;
  info: InfoState;
  onRetryInfo: () => void;
}) {
  const t = useT();
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    // Moving to a page moves focus to its heading, so keyboard and screen-reader users land there.
    if (!headingRef.current?.contains(document.activeElement)) headingRef.current?.focus({ preventScroll: true });
  }, []);

  return (
    <div className="settings-page" data-testid="settings-page">
      <header className="page-header">
        <h1 ref={headingRef} className="page-header__title" tabIndex={-1}>
          {t('shell.settings.title')}
        </h1>
        <p className="page-header__subtitle">{t('shell.settings.subtitle')}</p>
      </header>
      <section className="settings-card" aria-labelledby="general-heading">
        <h2 id="general-heading" className="settings-card__title">
          {t('shell.settings.general')}
        </h2>
        <LanguagePicker language={language} onChange={onLanguageChange} />
      </section>
      <AboutSection state={info} onRetry={onRetryInfo} />
    </div>
  );
}
