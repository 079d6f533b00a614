import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy… and waitFor give up after this long. The shell draws the list first and the session's
// view (or the new task) a frame later; on two shared cores, with the whole suite running, a
// second was seen to pass before that frame came.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  if (typeof window === 'undefined') return; // node-environment tests
  cleanup();
  window.location.hash = '';
  window.localStorage.clear();
});

// jsdom has no layout: every element measures 0 × 0, and a virtualizer with a viewport of no
// height renders no rows. The virtualized scrollers (the session list, the transcript) get a tall
// viewport and their rows a modest height, so tests see every row of their small fixtures.
const VIRTUAL_SCROLLERS = '[data-testid="sessions-scroll"], [data-testid="transcript"]';
if (typeof HTMLElement !== 'undefined') {
  const size = (name: 'clientHeight' | 'clientWidth' | 'offsetHeight' | 'offsetWidth', scroller: number, row: number) =>
    Object.defineProperty(HTMLElement.prototype, name, {
      configurable: true,
      get(this: HTMLElement) {
        if (this.matches(VIRTUAL_SCROLLERS)) return scroller;
        return this.hasAttribute('data-index') ? row : 0;
      },
    });
  size('clientHeight', 4000, 40);
  size('offsetHeight', 4000, 40);
  size('clientWidth', 600, 600);
  size('offsetWidth', 600, 600);
}
