import { afterEach, describe, expect, it, vi } from 'vitest';
import { selectTransport, setTransportForTesting, transport } from './select';
import type { WailsGlobals } from './wails';

type Win = Window & WailsGlobals;

afterEach(() => {
  delete (window as Win).go;
  setTransportForTesting(null);
});

describe('transport choice', () => {
  it('uses the Wails bindings when window.go.app exists', async () => {
    const List = vi.fn().mockResolvedValue([]);
    (window as Win).go = { app: { Sessions: { List } } };
    const t = selectTransport(window as Win);
    expect(t.name).toBe('wails');
    await expect(t.call('Sessions.List')).resolves.toEqual([]);
    expect(List).toHaveBeenCalledWith();
  });

  it('uses HTTP when there is no window.go', () => {
    expect(selectTransport(window as Win).name).toBe('http');
  });

  it('uses HTTP when window.go exists without the app package', () => {
    (window as Win).go = {};
    expect(selectTransport(window as Win).name).toBe('http');
  });

  it('chooses once, on first use', () => {
    const first = transport();
    expect(first.name).toBe('http');
    (window as Win).go = { app: {} };
    expect(transport()).toBe(first);
  });
});
