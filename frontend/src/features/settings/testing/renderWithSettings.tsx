import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { Language } from '../../../bridge';
import { I18nProvider } from '../../../i18n/I18nProvider';
import { SettingsApiProvider } from '../settingsApiContext';
import type { FakeSettingsBackend } from './fakeSettingsBackend';

/** Renders with the fake's Settings API and a language, as the shell would. */
export function renderWithSettings(ui: ReactElement, backend: FakeSettingsBackend, lang: Language = 'en') {
  const api = backend.api();
  return {
    api,
    ...render(
      <SettingsApiProvider value={api}>
        <I18nProvider lang={lang}>{ui}</I18nProvider>
      </SettingsApiProvider>,
    ),
  };
}
