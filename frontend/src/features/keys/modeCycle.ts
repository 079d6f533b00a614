import { useSyncExternalStore } from 'react';

/**
 * Whether Shift+Tab in the empty message box cycles the mode. Off until the person turns it on in
 * Settings or picks a mode with the selector once; until then Shift+Tab moves the focus back, as
 * it does everywhere else. Kept in this browser's storage: a preference of the page, not of the app.
 */
const KEY = 'agentdesk.ui.shiftTabModes';
const listeners = new Set<() => void>();

function read(): 'on' | 'off' | null {
  try {
    const v = window.localStorage.getItem(KEY);
    return v === 'on' || v === 'off' ? v : null;
  } catch {
    return null;
  }
}

let memory: 'on' | 'off' | null = null;

export function modeCycleOn(): boolean {
  return (read() ?? memory) === 'on';
}

export function setModeCycle(on: boolean): void {
  memory = on ? 'on' : 'off';
  try {
    window.localStorage.setItem(KEY, memory);
  } catch {
    // storage disabled: the choice lasts for this page
  }
  listeners.forEach((l) => l());
}

/** The person picked a mode with the selector: Shift+Tab may cycle from now on, unless they turned it off. */
export function markModeCycleUsed(): void {
  if ((read() ?? memory) === null) setModeCycle(true);
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function useModeCycle(): boolean {
  return useSyncExternalStore(subscribe, modeCycleOn, modeCycleOn);
}
