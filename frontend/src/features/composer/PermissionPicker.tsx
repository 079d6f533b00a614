import { useEffect, useId, useRef, useState } from 'react';
import { PERMISSIONS, type Permission } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { Spinner } from '../../ui/Spinner';
import { ChevronDownIcon, ShieldIcon } from '../../ui/icons';
import { MenuRadioItem } from './MenuRadioItem';
import { displayedMode, type PermissionDisplay } from './permission';
import { useMenu } from './useMenu';

/**
 * The permission picker of the controls row (R-AUTH-2/3). It shows what `display` says — a draft
 * choice, the backend default, the session's mode, or an explicit "couldn't load the default" —
 * and never writes the default. Full access first asks for a confirmation, inline in this row.
 */
export function PermissionPicker({
  display,
  onChoose,
  onRetry,
  disabled,
}: {
  display: PermissionDisplay;
  onChoose: (p: Permission) => Promise<void> | void;
  /** Offered when the default could not be loaded. */
  onRetry?: () => void;
  disabled?: boolean;
}) {
  const t = useT();
  const menu = useMenu();
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const mode = displayedMode(display);

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const pick = (p: Permission) => {
    menu.close(p !== 'full');
    if (p === 'full' && mode !== 'full') setConfirming(true);
    else if (p !== mode || display.source === 'default') void onChoose(p);
  };

  const label =
    display.source === 'loading'
      ? t('composer.permission.loading')
      : display.source === 'unavailable'
        ? t('composer.permission.unavailable')
        : t(`permission.label.${mode}`);
  // The name holds every word the button shows, in order ("Permission: Ask default"): WCAG 2.5.3.
  const shown = display.source === 'default' ? `${label} ${t('composer.permission.defaultTag')}` : label;

  if (confirming) {
    return (
      <div
        className="full-confirm"
        role="group"
        aria-label={t('composer.permission.confirmTitle')}
        data-testid="full-access-confirm"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            setConfirming(false);
          }
        }}
      >
        <ShieldIcon size={14} className="full-confirm__icon" />
        <span className="full-confirm__text">{t('composer.permission.confirmText')}</span>
        <button type="button" className="btn btn--small" data-testid="full-access-cancel" onClick={() => setConfirming(false)}>
          {t('composer.action.cancel')}
        </button>
        <button
          ref={confirmRef}
          type="button"
          className="btn btn--small btn--danger"
          data-testid="full-access-confirm-button"
          onClick={() => {
            setConfirming(false);
            void onChoose('full');
          }}
        >
          {t('composer.permission.confirmButton')}
        </button>
      </div>
    );
  }

  return (
    <div className="control" ref={menu.rootRef}>
      <button
        {...menu.buttonProps(id)}
        className={`control__button control__button--permission is-${display.source}${mode === 'full' ? ' is-full' : ''}`}
        data-testid="permission-picker"
        data-permission={mode ?? ''}
        data-source={display.source}
        aria-label={t('composer.permission.aria', { Mode: shown })}
        disabled={disabled}
      >
        {display.source === 'loading' ? <Spinner label={label} size={12} /> : <ShieldIcon size={14} />}
        <span className="control__value" data-testid="permission-label">
          {label}
        </span>
        {/* A space between the words, for what is read and what is matched against the name. */}
        {display.source === 'default' && (
          <>
            {' '}
            <span className="control__tag">{t('composer.permission.defaultTag')}</span>
          </>
        )}
        <ChevronDownIcon size={14} />
      </button>
      {menu.open && (
        <div id={id} ref={menu.menuRef} role="menu" className="menu" aria-label={t('composer.permission.menu')} onKeyDown={menu.onMenuKeyDown}>
          {PERMISSIONS.map((p) => (
            <MenuRadioItem
              key={p}
              checked={mode === p}
              className={p === 'full' ? 'menu__item--warn' : ''}
              label={t(`permission.label.${p}`)}
              hint={t(`composer.permission.hint.${p}`)}
              testId={`permission-option-${p}`}
              onPick={() => pick(p)}
            />
          ))}
          {display.source === 'unavailable' && onRetry && (
            <>
              <div className="menu__sep" role="separator" />
              <button
                type="button"
                role="menuitem"
                className="menu__item"
                data-testid="permission-retry"
                onClick={() => {
                  menu.close();
                  onRetry();
                }}
              >
                <span className="menu__check" />
                <span className="menu__label">{t('composer.permission.retry')}</span>
              </button>
            </>
          )}
          <p className="menu__foot">{t(display.source === 'session' ? 'composer.permission.footSession' : 'composer.permission.footDraft')}</p>
        </div>
      )}
    </div>
  );
}
