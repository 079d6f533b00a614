import { PERMISSIONS, type Permission } from '../../bridge';

/** The backend default as the new-task composer knows it: asked afresh for every new task. */
export type DefaultPermission =
  | { status: 'loading' }
  | { status: 'ready'; mode: Permission }
  | { status: 'error'; error: unknown };

/**
 * What the permission picker shows (R-AUTH-3): the draft's choice, else the backend default,
 * else an explicit state — loading, or "couldn't load the default". Never a guessed mode.
 */
export type PermissionDisplay =
  | { source: 'draft'; mode: Permission }
  | { source: 'default'; mode: Permission }
  | { source: 'session'; mode: Permission }
  | { source: 'loading' }
  | { source: 'unavailable' };

export function isPermission(v: unknown): v is Permission {
  return PERMISSIONS.includes(v as Permission);
}

export function draftPermissionDisplay(draft: Permission | null, def: DefaultPermission): PermissionDisplay {
  if (draft) return { source: 'draft', mode: draft };
  if (def.status === 'ready') return { source: 'default', mode: def.mode };
  if (def.status === 'loading') return { source: 'loading' };
  return { source: 'unavailable' };
}

/** A session's own mode; a value this build does not know is shown as unavailable, not guessed. */
export function sessionPermissionDisplay(mode: unknown): PermissionDisplay {
  return isPermission(mode) ? { source: 'session', mode } : { source: 'unavailable' };
}

export const displayedMode = (d: PermissionDisplay): Permission | null => ('mode' in d ? d.mode : null);
