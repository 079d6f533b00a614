import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import type { Boot } from './boot';
import { noteFirstScreenDrawn } from '../ui/firstScreen';

/** Draws the app into root with the stores the boot started (main.tsx loads this on its own). */
export function mount(root: HTMLElement, boot: Boot) {
  createRoot(root).render(
    <StrictMode>
      <App api={boot.api} settingsApi={boot.settingsApi} stores={boot} />
    </StrictMode>,
  );
  // A timer set in an animation frame fires after that frame is painted.
  requestAnimationFrame(() => window.setTimeout(noteFirstScreenDrawn, 0));
}
