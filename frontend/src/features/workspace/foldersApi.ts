import { transport } from '../../bridge/select';
import { typedTransport } from '../../bridge/typed';
import type { FolderEntry, FolderListing as Wire } from '../../bridge/generated';

/** A folder's listing, with the list never null. */
export type FolderListing = Omit<Wire, 'folders'> & { folders: FolderEntry[] };

/**
 * Choosing a workspace: the folder names under a path (never a file's contents), the folders of
 * recent sessions, and the desktop's own folder dialog. `getTransport` is injectable for tests.
 */
export function createFoldersApi(getTransport = transport) {
  const { call } = typedTransport(getTransport);
  return {
    /** The subfolders of `path` ('' for the home folder), and whether it may be a workspace. */
    list: (path: string, hidden = false) =>
      call('Folders.List', { ...(path ? { path } : {}), ...(hidden ? { hidden } : {}) }).then((l): FolderListing => ({ ...l, folders: l.folders ?? [] })),
    /** Workspaces of recent sessions, most recent first. */
    recent: () => call('Folders.Recent').then((r) => r?.folders ?? []),
    /** The native folder dialog (desktop only); '' when the person cancelled. */
    pick: () => call('Folders.Pick').then((r) => r?.path ?? ''),
  };
}

export type FoldersApi = ReturnType<typeof createFoldersApi>;
