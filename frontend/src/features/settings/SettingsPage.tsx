import { useEffect, useRef } from 'react';
import type { Language } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { Spinner } from '../../ui/Spinner';
import { AboutSection, type InfoState } from './AboutSection';
import { CheckpointsSection } from './CheckpointsSection';
import { useAppSettings } from './appSettingsStore';
import { DecisionTimeoutField } from './DecisionTimeoutField';
import { StepLimitField } from './StepLimitField';
import { TasksSection } from './TasksSection';
import { DefaultPermissionPicker } from './DefaultPermissionPicker';
import { ExternalAgentsSection } from './ExternalAgentsSection';
import { KeyboardSection } from '../keys/KeyboardSection';
import { LanguagePicker } from './LanguagePicker';
import { McpSection } from './McpSection';
import { ProvidersSection } from './ProvidersSection';
import { RulesSection } from './RulesSection';
import { SensitivePathsSection } from './SensitivePathsSection';
import { SettingsSection } from './SettingsSection';
import { ShellSection } from './ShellSection';
import { useSettingsApi } from './settingsApiContext';
import { ThemePicker } from './ThemePicker';
import './settings.css';

/**
 * The only place the defaults are written (R-AUTH-1): permission, rules, providers, external agents,
 * timeout, language, theme.
 */
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
  const api = useSettingsApi();
  const [state, store] = useAppSettings();
  const settings = state.settings;
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

      {state.status === 'error' && !settings && (
        <div className="settings-page__notice">
          <ErrorNotice error={state.error} title={t('settings.loadFailed')} onRetry={() => void store.load()} testId="settings-error" />
        </div>
      )}

      <SettingsSection id="general" title={t('shell.settings.general')}>
        <LanguagePicker language={language} onChange={onLanguageChange} />
        {settings && <ThemePicker theme={settings.theme} onChange={async (theme) => store.apply(await api.settings.setTheme(theme))} />}
      </SettingsSection>
      <KeyboardSection />

      {state.status === 'loading' && !settings && (
        <div className="settings-card settings-card__loading" data-testid="settings-loading">
          <Spinner label={t('shell.state.loading')} />
        </div>
      )}

      {settings && (
        <>
          <SettingsSection
            id="permissions"
            title={t('settings.permissions.title')}
            description={t('settings.permissions.description')}
            testId="permissions-section"
          >
            <DefaultPermissionPicker
              value={settings.defaultPermission}
              onSave={async (mode) => store.apply(await api.settings.setDefaultPermission(mode))}
            />
            <DecisionTimeoutField
              value={settings.decisionTimeout}
              onSave={async (value) => store.apply(await api.settings.setDecisionTimeout(value))}
            />
            {settings.stepLimit !== undefined && (
              <StepLimitField value={settings.stepLimit} onSave={async (value) => store.apply(await api.settings.setStepLimit(value))} />
            )}
          </SettingsSection>
          <TasksSection settings={settings} store={store} />
          <ShellSection settings={settings} store={store} />
          <SensitivePathsSection settings={settings} store={store} />
          <CheckpointsSection settings={settings} store={store} />
          <RulesSection />
          <McpSection />
          <ProvidersSection settings={settings} store={store} />
          <ExternalAgentsSection settings={settings} store={store} />
        </>
      )}

      <AboutSection state={info} onRetry={onRetryInfo} />
    </div>
  );
}
