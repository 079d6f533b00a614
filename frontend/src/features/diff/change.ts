import { lazy } from 'react';

/** What a write or an edit would do to a file (Go's display.Change). */
export interface FileChange {
  path: string;
  before: string;
  after: string;
  created?: boolean;
  omitted?: string;
}

export function isFileChange(v: unknown): v is FileChange {
  const c = v as FileChange | null;
  return typeof c === 'object' && c !== null && typeof c.path === 'string' && typeof c.before === 'string' && typeof c.after === 'string';
}

/**
 * The diff view with jsdiff and highlight.js, loaded the first time an approval shows a change,
 * so the window's first paint does not carry them.
 */
export const LazyDiffView = lazy(() => import('./DiffView'));
