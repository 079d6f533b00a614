/**
 * The rows to mount while the view follows the stream: the newest ones, enough to fill `fill`
 * pixels from the end, and `overscan` more before them. Rows appended since the last render are
 * drawn where the view scrolls to in the same frame, not first at the place it stood (a second
 * render followed the scroll: a turn's end showed a frame late), and the rows above the screen
 * that the default window keeps for a scroll up are left out while nobody scrolls: a burst of
 * tool calls mounts a fresh screen of cards at every drawing, and those rows cost as much as the
 * ones seen. sizeOf gives a row's height (measured, or estimated), in pixels.
 */
export function followRange(count: number, fill: number, gap: number, overscan: number, sizeOf: (index: number) => number): number[] {
  if (count === 0) return [];
  let first = count - 1;
  for (let filled = sizeOf(first); first > 0 && filled < fill; filled += sizeOf(first) + gap) first--;
  first = Math.max(0, first - overscan);
  return Array.from({ length: count - first }, (_, i) => first + i);
}
