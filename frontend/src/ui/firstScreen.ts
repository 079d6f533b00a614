import { useState } from 'react';

// What the first screen shows is there at once, not faded in: a part with an entry animation
// plays it only when it appears after the first screen was painted (a view opened, a mode
// changed). Besides the look, each frame of an animation is a repaint, and the window paints in
// software on the page's own thread while the person starts typing.

let drawn = false;

/** The app's first screen has been painted (mount.tsx says so once it has). */
export function noteFirstScreenDrawn(): void {
  drawn = true;
}

/** Whether a part appearing now plays its entry animation: only after the first screen. */
export function useEntersAnimated(): boolean {
  const [animated] = useState(() => drawn);
  return animated;
}
