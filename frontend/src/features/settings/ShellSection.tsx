import { useId, type FormEvent } from 'react';
import type { AppSettings, SandboxSupport } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import type { TFunction } from '../../i18n/translate';
import type { AppSettingsStore } from './appSettingsStore';
import { SettingsSection } from './SettingsSection';
import { TextSettingRow, useDraft } from './SettingText';
import { useSettingsApi } from './settingsApiContext';
import { useAction } from './useAction';

/** "A, B C" as names; the server checks each one. */
export function splitNames(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** What confines shell commands here, in one sentence: said once, where the defaults live. */
function sandboxLine(s: SandboxSupport | null | undefined, t: TFunction): { text: string; confined: boolean } {
  if (s?.kind === 'landlock') {
    const key = s.namespaces
      ? 'settings.shell.sandbox.namespaces'
      : s.network
        ? 'settings.shell.sandbox.landlock'
        : 'settings.shell.sandbox.landlockNoNetwork';
    return { text: t(key, { ABI: s.abi }), confined: true };
  }
  return { text: t('settings.shell.sandbox.none'), confined: false };
}

/** What the namespaces show commands, and what this machine leaves uncovered, each as a short list. */
function SandboxDetails({ sandbox, t }: { sandbox: SandboxSupport | null | undefined; t: TFunction }) {
  const rows: [string, string[], string][] = [
    ['settings.shell.sandbox.caches', sandbox?.view?.read_write ?? [], 'sandbox-caches'],
    ['settings.shell.sandbox.toolchain', sandbox?.view?.read_only ?? [], 'sandbox-toolchain'],
    ['settings.shell.sandbox.uncovered', (sandbox?.uncovered ?? []).map((id) => t(`sandbox.uncovered.${id}`)), 'sandbox-uncovered'],
  ];
  return (
    <>
      {rows
        .filter(([, items]) => items.length > 0)
        .map(([key, items, testId]) => (
          <p className="setting-row__help" data-testid={testId} key={key}>
            {t(key)} {items.join(', ')}
          </p>
        ))}
    </>
  );
}

/** How shell commands run: the kernel sandbox, and the secret-looking variables they may keep. */
export function ShellSection({ settings, store }: { settings: AppSettings; store: AppSettingsStore }) {
  const t = useT();
  const api = useSettingsApi();
  const id = useId();
  const saved = (settings.shellEnvPassthrough ?? []).join(', ');
  const draft = useDraft(saved);
  const save = useAction(async (names: string[]) => store.apply(await api.settings.setShellEnvPassthrough(names)));
  const sandbox = sandboxLine(settings.sandbox, t);
  const dirty = splitNames(draft.text).join(', ') !== saved;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (dirty && (await save.run(splitNames(draft.text)))) draft.setEditing(false);
  };
  return (
    <SettingsSection id="shell" title={t('settings.shell.title')} description={t('settings.shell.description')} testId="shell-section">
      <div className="setting-row" data-testid="sandbox-status">
        <div className="setting-row__label">
          <span className="setting-row__title">{t('settings.shell.sandbox.label')}</span>
          <p className={`setting-row__help${sandbox.confined ? '' : ' is-caution'}`} data-testid="sandbox-status-text" data-kind={settings.sandbox?.kind ?? 'none'}>
            {sandbox.text}
          </p>
          <SandboxDetails sandbox={settings.sandbox} t={t} />
        </div>
      </div>
      <TextSettingRow
        id={id}
        testId="env-passthrough"
        title={t('settings.shell.passthrough.label')}
        help={t('settings.shell.passthrough.help')}
        onSubmit={(e) => void submit(e)}
        draft={draft}
        save={save}
        dirty={dirty}
        placeholder={t('settings.shell.passthrough.placeholder')}
      />
    </SettingsSection>
  );
}
