import type { Session } from '../../bridge';
import { useI18n } from '../../i18n/I18nProvider';
import { FolderIcon, SparkIcon } from '../../ui/icons';
import { fullDateTime } from './formatTime';

/** The selected session: its header and, for now, an empty transcript. */
export function SessionView({ session }: { session: Session }) {
  const { t, lang } = useI18n();
  return (
    <article className="session-view" data-testid="session-view" data-session-id={session.id} aria-labelledby="session-title">
      <header className="session-view__header">
        <h1 id="session-title" className="session-view__title" data-testid="session-heading" tabIndex={-1}>
          {session.title}
        </h1>
        <div className="session-view__meta">
          <span className="meta-chip" title={t('shell.session.workspace')}>
            <FolderIcon size={13} />
            <span className="mono" data-testid="session-workspace">
              {session.workspace}
            </span>
          </span>
          <span className="meta-text">
            {t('shell.session.created', { When: fullDateTime(session.createdAt, lang) })}
          </span>
        </div>
      </header>
      <section className="transcript transcript--empty" aria-label={t('shell.session.transcript')}>
        <div className="empty-state empty-state--quiet">
          <div className="empty-state__art">
            <SparkIcon size={24} />
          </div>
          <h2 className="empty-state__title">{t('shell.session.emptyTitle')}</h2>
          <p className="empty-state__text">{t('shell.session.emptyBody')}</p>
        </div>
      </section>
    </article>
  );
}
