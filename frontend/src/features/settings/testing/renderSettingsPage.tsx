import { vi } from 'vitest';
import type { InfoState } from '../AboutSection';
import { SettingsPage } from '../SettingsPage';
import type { FakeSettingsBackend } from './fakeSettingsBackend';
import { renderWithSettings } from './renderWithSettings';

const info: InfoState = {
  status: 'ready',
  info: { version: '0.1.0', dataDir: '/tmp/data', defaultWorkspace: '/home/ada', transport: 'browser' },
};

/** The whole Settings page on the fake, as the shell shows it once System.Info has loaded. */
export function renderSettingsPage(backend: FakeSettingsBackend, lang: 'en' | 'zh-CN' = 'en') {
  return renderWithSettings(
    <SettingsPage language={lang} onLanguageChange={vi.fn().mockResolvedValue(undefined)} info={info} onRetryInfo={() => {}} />,
    backend,
    lang,
  );
}
