import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useT } from '../../i18n/I18nProvider';

/** The inline "Delete this session?" row; focus starts on the safe choice, Escape cancels. */
export function DeleteConfirm({
  title,
  busy,
  onConfirm,
  onCancel,
}: {
  title: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    cancelRef.current?.focus();
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    }
  };

  return (
    <div className="delete-confirm" role="group" aria-label={t('shell.sessions.deleteConfirm', { Title: title })} onKeyDown={onKeyDown}>
      <span className="delete-confirm__text">{t('shell.sessions.deleteQuestion')}</span>
      <div className="delete-confirm__actions">
        <button ref={cancelRef} type="button" className="btn btn--small" data-testid="cancel-delete" onClick={onCancel} disabled={busy}>
          {t('shell.action.cancel')}
        </button>
        <button type="button" className="btn btn--small btn--danger" data-testid="confirm-delete" onClick={onConfirm} disabled={busy}>
          {t('shell.action.delete')}
        </button>
      </div>
    </div>
  );
}
