import { useId, useRef, useState } from 'react';
import { PERMISSIONS, type Permission } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FullAccessConfirm } from './FullAccessConfirm';
import { useAction } from './useAction';
import { SettingLabel } from './SettingLabel';

/**
 * The default permission mode for new sessions (R-AUTH-1: Settings is its only writer). Choosing
 * Full access only opens an inline confirmation; nothing is written until it is confirmed.
 */
export function DefaultPermissionPicker({
  value,
  onSave,
}: {
  value: Permission;
  onSave: (mode: Permission) => Promise<unknown>;
}) {
  const t = useT();
  const name = useId();
  const groupRef = useRef<HTMLDivElement>(null);
  const [confirming, setConfirming] = useState(false);
  const [pendingMode, setPendingMode] = useState<Permission | null>(null);
  const save = useAction(async (mode: Permission) => {
    setPendingMode(mode);
    try {
      await onSave(mode);
    } finally {
      setPendingMode(null);
    }
  });

  const shown = pendingMode ?? value;

  const focusChecked = () => groupRef.current?.querySelector<HTMLInputElement>('input:checked')?.focus();

  const choose = (mode: Permission) => {
    // Radios stay enabled while a change saves (disabling them would drop keyboard focus).
    if (save.pending) return;
    save.clearError();
    if (mode === value) {
      setConfirming(false);
      return;
    }
    if (mode === 'full') {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    void save.run(mode);
  };

  const cancel = () => {
    setConfirming(false);
    focusChecked();
  };

  const confirm = async () => {
    if (save.pending) return;
    if (await save.run('full')) {
      setConfirming(false);
      // The panel and its button are gone: put focus back on the choice just made.
      requestAnimationFrame(focusChecked);
    }
  };

  return (
    <div className="setting-row setting-row--stacked">
      <SettingLabel
        title={t('settings.permission.label')}
        help={t('settings.permission.help')}
        titleId={`${name}-label`}
        helpId={`${name}-help`}
      />
      <div
        ref={groupRef}
        className="choice-cards"
        role="radiogroup"
        aria-labelledby={`${name}-label`}
        aria-describedby={`${name}-help`}
        data-testid="default-permission"
      >
        {PERMISSIONS.map((mode) => {
          const checked = shown === mode;
          const asking = confirming && mode === 'full';
          return (
            <label
              key={mode}
              className={`choice-card${checked ? ' is-checked' : ''}${asking ? ' is-pending' : ''}${mode === 'full' ? ' choice-card--caution' : ''}`}
            >
              <input
                type="radio"
                className="visually-hidden"
                name={name}
                value={mode}
                checked={checked}
                aria-describedby={`${name}-${mode}-text`}
                data-testid={`default-permission-${mode}`}
                onChange={() => choose(mode)}
              />
              <span className="choice-card__radio" aria-hidden="true" />
              <span className="choice-card__text">
                <span className="choice-card__title">{t(`permission.label.${mode}`)}</span>
                <span className="choice-card__help" id={`${name}-${mode}-text`}>
                  {t(`settings.permission.${mode}.help`)}
                </span>
              </span>
            </label>
          );
        })}
      </div>
      {confirming && <FullAccessConfirm saving={save.pending} onConfirm={() => void confirm()} onCancel={cancel} />}
      {save.error !== null && (
        <div className="setting-row__error">
          <ErrorNotice error={save.error} onDismiss={save.clearError} testId="default-permission-error" />
        </div>
      )}
    </div>
  );
}
