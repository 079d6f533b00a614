import { useState } from 'react';
import { LANGUAGES, type Language } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { ErrorNotice } from '../../ui/ErrorNotice';

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
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const choose = async (next: Language) => {
    setSaving(true);
    setError(null);
    try {
      await onChange(next);
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="setting-row">
      <div className="setting-row__label">
        <label htmlFor="language-select" className="setting-row__title">
          {t('shell.settings.language')}
        </label>
        <p className="setting-row__help" id="language-help">
          {t('shell.settings.languageHelp')}
        </p>
      </div>
      <div className="setting-row__control">
        <select
          id="language-select"
          className="select"
          data-testid="language-select"
          aria-describedby="language-help"
          value={language}
          disabled={saving}
          onChange={(e) => void choose(e.target.value as Language)}
        >
          {LANGUAGES.map((l) => (
            <option key={l} value={l} lang={l}>
              {t(LANGUAGE_NAME_KEYS[l])}
            </option>
          ))}
        </select>
      </div>
      {error !== null && (
        <div className="setting-row__error">
          <ErrorNotice error={error} onDismiss={() => setError(null)} testId="language-error" />
        </div>
      )}
    </div>
  );
}
