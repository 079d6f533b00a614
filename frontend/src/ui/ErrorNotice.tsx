import { useT } from '../i18n/I18nProvider';
import { describeError } from './errors';
import { IconButton } from './IconButton';
import { AlertIcon, CloseIcon } from './icons';

/** An inline error with an optional retry or dismiss; the text is the BridgeError's message. */
export function ErrorNotice({
  error,
  title,
  onRetry,
  onDismiss,
  testId = 'error-notice',
}: {
  error: unknown;
  title?: string;
  onRetry?: () => void;
  onDismiss?: () => void;
  testId?: string;
}) {
  const t = useT();
  return (
    <div className="notice notice--error" role="alert" data-testid={testId}>
      <AlertIcon className="notice__icon" />
      <div className="notice__body">
        {title && <strong className="notice__title">{title}</strong>}
        <span className="notice__text">{describeError(error, t)}</span>
      </div>
      {onRetry && (
        <button type="button" className="btn btn--small" onClick={onRetry}>
          {t('shell.action.retry')}
        </button>
      )}
      {onDismiss && (
        <IconButton label={t('shell.action.dismiss')} onClick={onDismiss}>
          <CloseIcon />
        </IconButton>
      )}
    </div>
  );
}
