import { useId, useState, type FormEvent } from 'react';
import type { AppSettings } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';
import type { AppSettingsStore } from './appSettingsStore';
import { SettingsSection } from './SettingsSection';
import { useSettingsApi } from './settingsApiContext';
import { useAction } from './useAction';

/**
 * The sensitive paths list: files the agent reads only when the person approves, by any tool or
 * shell command, and never with full access. Each change saves the whole list at once, so the
 * next tool call is judged by what the page shows.
 */
export function SensitivePathsSection({ settings, store }: { settings: AppSettings; store: AppSettingsStore }) {
  const t = useT();
  const api = useSettingsApi();
  const id = useId();
  const known = settings.sensitivePaths !== undefined;
  const paths = settings.sensitivePaths ?? [];
  const [draft, setDraft] = useState('');
  const save = useAction(async (next: string[], reset?: boolean) => store.apply(await api.settings.setSensitivePaths(next, reset === true)));
  const isDefault =
    settings.defaultSensitivePaths !== undefined &&
    paths.length === settings.defaultSensitivePaths.length &&
    paths.every((p, i) => p === settings.defaultSensitivePaths?.[i]);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const entry = draft.trim();
    if (!entry) return;
    if (await save.run(paths.includes(entry) ? paths : [...paths, entry])) setDraft('');
  };
  const errorId = `${id}-error`;
  // A server that does not report the list (an older one) gets no section rather than a wrong one.
  if (!known) return null;
  return (
    <SettingsSection id="sensitive-paths" title={t('sensitive.title')} description={t('sensitive.hint')} testId="sensitive-section">
      {paths.length === 0 ? (
        <p className="setting-row__help is-caution" data-testid="sensitive-empty">
          {t('sensitive.empty')}
        </p>
      ) : (
        <ul className="setting-list" style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="sensitive-list">
          {paths.map((p) => (
            <li key={p} className="setting-row" data-testid="sensitive-entry" data-path={p}>
              <span className="setting-row__title mono">{p}</span>
              <button
                type="button"
                className="btn btn--small"
                disabled={save.pending}
                aria-label={`${t('sensitive.remove')} ${p}`}
                data-testid="sensitive-remove"
                onClick={() => void save.run(paths.filter((q) => q !== p))}
              >
                {t('sensitive.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="setting-row" onSubmit={(e) => void add(e)} data-testid="sensitive-add">
        <div className="setting-row__control field-inline">
          <input
            id={`${id}-input`}
            className={`input mono${save.error !== null ? ' is-invalid' : ''}`}
            value={draft}
            placeholder={t('sensitive.placeholder')}
            aria-label={t('sensitive.placeholder')}
            spellCheck={false}
            autoComplete="off"
            aria-describedby={save.error !== null ? errorId : undefined}
            aria-invalid={save.error !== null}
            data-testid="sensitive-input"
            onChange={(e) => {
              setDraft(e.target.value);
              save.clearError();
            }}
          />
          <button type="submit" className="btn btn--small" disabled={!draft.trim() || save.pending} data-testid="sensitive-add-button">
            {t('sensitive.add')}
          </button>
          <button
            type="button"
            className="btn btn--small"
            disabled={isDefault || save.pending}
            data-testid="sensitive-reset"
            onClick={() => void save.run([], true)}
          >
            {t('sensitive.reset')}
          </button>
        </div>
        {save.error !== null && (
          <p className="field-error" id={errorId} role="alert" data-testid="sensitive-error">
            {describeError(save.error, t)}
          </p>
        )}
      </form>
    </SettingsSection>
  );
}
