import { useT } from '../../i18n/I18nProvider';
import { ChatIcon, PlusIcon } from '../../ui/icons';

/** The main area when there is no session yet. */
export function NoSessions({
  defaultWorkspace,
  creating,
  onCreate,
}: {
  defaultWorkspace: string | null;
  creating: boolean;
  onCreate: () => void;
}) {
  const t = useT();
  return (
    <div className="empty-state" data-testid="no-sessions">
      <div className="empty-state__art">
        <ChatIcon size={28} />
      </div>
      <h1 className="empty-state__title">{t('shell.empty.title')}</h1>
      <p className="empty-state__text">{t('shell.empty.body')}</p>
      {defaultWorkspace && (
        <p className="empty-state__hint">
          {t('shell.empty.workspaceHint')} <code className="mono">{defaultWorkspace}</code>
        </p>
      )}
      <button type="button" className="btn btn--primary" data-testid="empty-new-session" onClick={onCreate} disabled={creating}>
        <PlusIcon size={15} />
        <span>{t('shell.empty.create')}</span>
      </button>
    </div>
  );
}
