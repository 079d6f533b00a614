/** How the server writes "no timeout": the decision waits for the person. */
export const NEVER = 'never';

/**
 * Shows a Go duration the way a person writes it: "10m0s" -> "10m", "1h0m0s" -> "1h", "1m30s" stays;
 * "never" (and an empty value from an older server) stays "never".
 */
export function formatDuration(goDuration: string): string {
  if (goDuration === '' || goDuration === NEVER) return NEVER;
  return goDuration.replace(/([hm])0s$/, '$1').replace(/h0m$/, 'h');
}
