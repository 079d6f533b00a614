import { useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { Spinner } from '../../ui/Spinner';
import { RuleItem } from './RuleItem';
import { SettingsSection } from './SettingsSection';
import { useRules } from './useRules';

/** The rules "Always allow" wrote (R-DEC-4): visible, and revocable one by one. */
export function RulesSection() {
  const t = useT();
  const { state, reload, revoke } = useRules();
  const [revoking, setRevoking] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  // After a revoke the focus moves to the rule that took its place (or the empty state), not the page.
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const emptyRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (focusIndex === null || state.status !== 'ready') return;
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>('[data-testid="revoke-rule"]') ?? [];
    const next = buttons[Math.min(focusIndex, buttons.length - 1)];
    (next ?? emptyRef.current)?.focus();
    setFocusIndex(null);
  }, [focusIndex, state]);

  const onRevoke = async (id: string, index: number) => {
    setRevoking(id);
    setError(null);
    try {
      await revoke(id);
      setFocusIndex(index);
    } catch (err) {
      setError(err);
    } finally {
      setRevoking(null);
    }
  };

  return (
    <SettingsSection id="rules" title={t('settings.rules.title')} description={t('settings.rules.description')} testId="rules-section">
      {state.status === 'loading' && (
        <div className="settings-card__loading">
          <Spinner label={t('shell.state.loading')} />
        </div>
      )}
      {state.status === 'error' && <ErrorNotice error={state.error} title={t('settings.rules.loadFailed')} onRetry={reload} />}
      {state.status === 'ready' &&
        (state.value.length === 0 ? (
          <div ref={emptyRef} className="rules-empty" tabIndex={-1} data-testid="rules-empty">
            <p className="rules-empty__title">{t('settings.rules.emptyTitle')}</p>
            <p className="rules-empty__text">{t('settings.rules.emptyBody')}</p>
          </div>
        ) : (
          <ul ref={listRef} className="rule-list" aria-label={t('settings.rules.title')} data-testid="rule-list">
            {state.value.map((rule, index) => (
              <RuleItem
                key={rule.id}
                rule={rule}
                revoking={revoking === rule.id}
                onRevoke={() => void onRevoke(rule.id, index)}
              />
            ))}
          </ul>
        ))}
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="revoke-error" />}
    </SettingsSection>
  );
}
