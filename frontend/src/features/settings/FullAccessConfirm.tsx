import { useEffect, useRef } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { AlertIcon } from '../../ui/icons';

/** The explicit confirmation Full access needs (R-GATE-3), inline under the picker. */
export function FullAccessConfirm({
  saving,
  onConfirm,
  onCancel,
}: {
  saving: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // Land on the question so it is read out before the buttons.
    ref.current?.focus();
  }, []);

  return (
    <div
      ref={ref}
      className="confirm-panel"
      role="group"
      tabIndex={-1}
      aria-labelledby="full-confirm-title"
      aria-describedby="full-confirm-body"
      data-testid="full-access-confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <AlertIcon className="confirm-panel__icon" size={18} />
      <div className="confirm-panel__body">
        <strong id="full-confirm-title" className="confirm-panel__title">
          {t('settings.permission.confirmTitle')}
        </strong>
        <p id="full-confirm-body" className="confirm-panel__text">
          {t('settings.permission.confirmBody')}
        </p>
        <div className="confirm-panel__actions">
          <button type="button" className="btn btn--small" onClick={onCancel} data-testid="full-access-cancel">
            {t('shell.action.cancel')}
          </button>
          <button
            type="button"
            className="btn btn--small btn--danger"
            onClick={onConfirm}
            aria-disabled={saving}
            data-testid="full-access-confirm-button"
          >
            {t('settings.permission.confirmAction')}
          </button>
        </div>
      </div>
    </div>
  );
}
