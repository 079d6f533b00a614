import { LANGUAGES, type Language } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { SettingLabel } from './SettingLabel';
import { useAction } from './useAction';

/** Each language is offered under its own name, whatever the shell's language is. */
const LANGUAGE_NAME_KEYS: Record<Language, string> = {
  en: 'shell.language.en',
  'zh-CN': 'shell.language.zh-CN',
};

export function LanguagePicker({
  language,
  onChange,
}: {
  language: Language;
  onChange: (lang: Language) => Promise<void>;
}) {
  const t = useT();
  const save = useAction(onChange);

  return (
    <div className="setting-row">
      <SettingLabel
        title={t('shell.settings.language')}
        help={t('shell.settings.languageHelp')}
        htmlFor="language-select"
        helpId="language-help"
      />
      <div className="setting-row__control">
        <select
          id="language-select"
          className="select"
          data-testid="language-select"
          aria-describedby="language-help"
          value={language}
          disabled={save.pending}
          onChange={(e) => void save.run(e.target.value as Language)}
        >
          {LANGUAGES.map((l) => (
            <option key={l} value={l} lang={l}>
              {t(LANGUAGE_NAME_KEYS[l])}
            </option>
          ))}
        </select>
      </div>
      {save.error !== null && (
        <div className="setting-row__error">
          <ErrorNotice error={save.error} onDismiss={save.clearError} testId="language-error" />
        </div>
      )}
    </div>
  );
}
