import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import type { Boot } from './boot';
import { parseHash } from './route';
import { preloadRoute } from './views';

/** Draws the app into root with the stores the boot started (main.tsx loads this on its own). */
export function mount(root: HTMLElement, boot: Boot) {
  createRoot(root).render(
    <StrictMode>
      <App api={boot.api} settingsApi={boot.settingsApi} stores={boot} />
    </StrictMode>,
  );
  // The view the address opens on loads while the list is drawn (it is drawn once the list is painted).
  const list = boot.sessions.get();
  preloadRoute(parseHash(window.location.hash), list.status === 'ready' ? list.sessions.length === 0 : undefined);
}
