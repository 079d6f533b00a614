import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import type { Boot } from './boot';

/** Draws the app into root with the stores the boot started (main.tsx loads this on its own). */
export function mount(root: HTMLElement, boot: Boot) {
  createRoot(root).render(
    <StrictMode>
      <App api={boot.api} settingsApi={boot.settingsApi} stores={boot} />
    </StrictMode>,
  );
}
