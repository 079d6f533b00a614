import { useEffect, useState } from 'react';
import { BridgeError } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { FolderIcon } from '../../ui/icons';
import { FolderDialog } from './FolderDialog';
import type { FoldersApi } from './foldersApi';
import './workspace.css';

/** The backend's kind for "no native dialog here": the page browses with the folder dialog instead. */
const PICKER_UNAVAILABLE = 'FOLDER_PICKER_UNAVAILABLE';

/**
 * The new session's folder: typed (~ and ~/x are expanded by the backend), chosen in the desktop's
 * own dialog or, in the browser, in the folder browser, or taken from the recent folders. It sits
 * with the composer, so it is on screen whatever is above it.
 */
export function WorkspaceField({
  folders,
  desktop,
  value,
  onChange,
  onRecent,
}: {
  folders: FoldersApi;
  /** The page runs in the desktop window, which has a native folder dialog. */
  desktop: boolean;
  value: string;
  onChange: (path: string) => void;
  /** The recent folders arrived, most recent first. */
  onRecent?: (recent: string[]) => void;
}) {
  const t = useT();
  const [recent, setRecent] = useState<string[]>([]);
  const [browsing, setBrowsing] = useState(false);

  useEffect(() => {
    let live = true;
    folders
      .recent()
      .then((list) => {
        if (!live) return;
        setRecent(list);
        onRecent?.(list);
      })
      // Without recent folders the field still works: typed or chosen.
      .catch(() => undefined);
    return () => {
      live = false;
    };
    // The list is asked once per new task; onRecent may change identity on every render.
  }, [folders]);

  async function choose() {
    if (desktop) {
      try {
        const picked = await folders.pick();
        if (picked) onChange(picked);
        return;
      } catch (err) {
        if (!(err instanceof BridgeError && err.kind === PICKER_UNAVAILABLE)) return;
      }
    }
    setBrowsing(true);
  }

  return (
    <div className="workspace-field" data-testid="workspace-field">
      <label className="new-task__folder">
        <FolderIcon size={13} />
        <span className="new-task__folder-label">{t('composer.newTask.folder')}</span>
        <input
          className="new-task__folder-input mono"
          data-testid="new-task-workspace"
          value={value}
          placeholder={t('workspace.field.placeholder')}
          aria-label={t('workspace.field.label')}
          spellCheck={false}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
      <button
        type="button"
        className="btn btn--small"
        data-testid="workspace-browse"
        aria-label={t('workspace.field.browseLabel')}
        onClick={() => void choose()}
      >
        {t('workspace.field.browse')}
      </button>
      {recent.length > 0 && (
        <select
          className="workspace-field__recent"
          data-testid="workspace-recent"
          aria-label={t('workspace.field.recentLabel')}
          value=""
          onChange={(e) => e.target.value && onChange(e.target.value)}
        >
          <option value="">{t('workspace.field.recent')}</option>
          {recent.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      )}
      {browsing && (
        <FolderDialog
          folders={folders}
          start={value.trim()}
          onClose={() => setBrowsing(false)}
          onChoose={(path) => {
            setBrowsing(false);
            onChange(path);
          }}
        />
      )}
    </div>
  );
}

/**
 * The composer's question before the home folder becomes a workspace: what the agent could then
 * read, and the two ways on. It sits in place, above the composer, like the composer's own
 * questions.
 */
export function HomeConfirm({ path, onConfirm, onDecline }: { path: string; onConfirm: () => void; onDecline: () => void }) {
  const t = useT();
  return (
    <div className="home-confirm" role="alertdialog" aria-label={t('workspace.home.title')} data-testid="home-confirm">
      <strong className="home-confirm__title">{t('workspace.home.title')}</strong>
      <p className="home-confirm__body">{t('workspace.home.body', { Path: path })}</p>
      <div className="home-confirm__actions">
        <button type="button" className="btn btn--small" data-testid="home-decline" onClick={onDecline}>
          {t('workspace.home.cancel')}
        </button>
        <button type="button" className="btn btn--small btn--danger" data-testid="home-confirm-button" onClick={onConfirm}>
          {t('workspace.home.confirm')}
        </button>
      </div>
    </div>
  );
}
