import { browserHttpDeps, createHttpTransport } from './http';
import type { Transport } from './transport';
import { createWailsTransport, hasWailsBindings, type WailsGlobals } from './wails';

/** Inside the desktop window Wails injects `window.go.app`; anywhere else we talk HTTP/WS. */
export function selectTransport(win: Window & WailsGlobals): Transport {
  return hasWailsBindings(win) ? createWailsTransport(win) : createHttpTransport(browserHttpDeps());
}

let current: Transport | null = null;

/** The transport of this page, chosen on first use (the Wails globals exist by then). */
export function transport(): Transport {
  current ??= selectTransport(window as Window & WailsGlobals);
  return current;
}

/** For tests: forget the chosen transport, or force one. */
export function setTransportForTesting(t: Transport | null): void {
  current = t;
}
