/**
 * Shows a Go duration the way a person writes it: "10m0s" -> "10m", "1h0m0s" -> "1h", "1m30s" stays.
 */
export function formatDuration(goDuration: string): string {
  return goDuration.replace(/([hm])0s$/, '$1').replace(/h0m$/, 'h');
}
