import { useCallback, useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FolderIcon } from '../../ui/icons';
import type { FolderListing, FoldersApi } from './foldersApi';

/**
 * The folder browser of the browser page, where there is no native dialog: folder names only,
 * one level at a time. A folder the rules refuse can be passed through but not chosen, and the
 * dialog says why.
 */
export function FolderDialog({
  folders,
  start,
  onChoose,
  onClose,
}: {
  folders: FoldersApi;
  /** Where to open: the field's folder when it has one, else the home folder (''). */
  start: string;
  onChoose: (path: string) => void;
  onClose: () => void;
}) {
  const t = useT();
  const [listing, setListing] = useState<FolderListing | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [hidden, setHidden] = useState(false);
  const [typed, setTyped] = useState(start);
  const query = useRef(0);
  const dialog = useRef<HTMLDivElement>(null);

  const open = useCallback(
    async (path: string, withHidden = hidden) => {
      const mine = ++query.current;
      try {
        const next = await folders.list(path, withHidden);
        if (mine !== query.current) return;
        setListing(next);
        setTyped(next.path);
        setError(null);
      } catch (err) {
        if (mine === query.current) setError(err);
      }
    },
    [folders, hidden],
  );

  useEffect(() => {
    // Opens once, where the field pointed; later moves go through open().
    void open(start);
    dialog.current?.focus();
  }, []);

  return (
    <div className="folder-dialog__backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={dialog}
        className="folder-dialog"
        role="dialog"
        aria-modal="true"
        aria-label={t('workspace.dialog.title')}
        data-testid="folder-dialog"
        tabIndex={-1}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <h2 className="folder-dialog__title">{t('workspace.dialog.title')}</h2>
        <form
          className="folder-dialog__path"
          onSubmit={(e) => {
            e.preventDefault();
            void open(typed.trim());
          }}
        >
          <input
            className="input mono"
            data-testid="folder-dialog-path"
            aria-label={t('workspace.dialog.path')}
            value={typed}
            spellCheck={false}
            onChange={(e) => setTyped(e.target.value)}
          />
        </form>
        <div className="folder-dialog__nav">
          <button type="button" className="btn btn--small" data-testid="folder-dialog-up" disabled={!listing?.parent}
            onClick={() => listing?.parent && void open(listing.parent)}>
            {t('workspace.dialog.up')}
          </button>
          <button type="button" className="btn btn--small" onClick={() => void open('')}>
            {t('workspace.dialog.home')}
          </button>
          <label className="folder-dialog__hidden">
            <input
              type="checkbox"
              checked={hidden}
              onChange={(e) => {
                setHidden(e.target.checked);
                if (listing) void open(listing.path, e.target.checked);
              }}
            />
            {t('workspace.dialog.hidden')}
          </label>
        </div>
        {error !== null && <ErrorNotice error={error} testId="folder-dialog-error" />}
        <ul className="folder-dialog__list" data-testid="folder-dialog-list">
          {listing === null && error === null && <li className="folder-dialog__note">{t('workspace.dialog.loading')}</li>}
          {listing !== null && listing.folders.length === 0 && <li className="folder-dialog__note">{t('workspace.dialog.empty')}</li>}
          {listing?.folders.map((f) => (
            <li key={f.path}>
              <button type="button" className="folder-dialog__entry" data-testid="folder-dialog-entry" data-path={f.path}
                onClick={() => void open(f.path)}>
                <FolderIcon size={13} />
                <span className="mono">{f.name}</span>
              </button>
            </li>
          ))}
        </ul>
        {listing?.refusal && (
          <p className="folder-dialog__refusal" role="note" data-testid="folder-dialog-refusal">
            {listing.reason}
          </p>
        )}
        <div className="folder-dialog__actions">
          <button type="button" className="btn btn--small" onClick={onClose}>
            {t('workspace.dialog.cancel')}
          </button>
          <button
            type="button"
            className="btn btn--small btn--primary"
            data-testid="folder-dialog-choose"
            disabled={!listing || !!listing.refusal}
            onClick={() => listing && onChoose(listing.path)}
          >
            {t('workspace.dialog.choose')}
          </button>
        </div>
      </div>
    </div>
  );
}
