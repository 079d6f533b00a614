import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings, FakeSettingsBackend } from './testing/fakeSettingsBackend';
import { renderWithSettings } from './testing/renderWithSettings';
import { applyTheme, SCHEME_ATTRIBUTE, THEME_ATTRIBUTE, useThemeSetting } from './useThemeSetting';

function Harness() {
  useThemeSetting();
  return null;
}

const attr = () => document.documentElement.getAttribute(THEME_ATTRIBUTE);

afterEach(() => {
  document.documentElement.removeAttribute(THEME_ATTRIBUTE);
  document.documentElement.removeAttribute(SCHEME_ATTRIBUTE);
  window.localStorage.clear();
});

describe('useThemeSetting', () => {
  it('applies the stored theme to <html>, follows changes, and remembers it for the next load', async () => {
    const backend = new FakeSettingsBackend({ settings: { theme: 'dark' } });
    renderWithSettings(<Harness />, backend);
    await waitFor(() => expect(attr()).toBe('dark'));
    expect(window.localStorage.getItem('agentdesk.theme')).toBe('dark');

    act(() => backend.emit('settings.changed', defaultSettings({ theme: 'light' })));
    expect(attr()).toBe('light');

    act(() => backend.emit('settings.changed', defaultSettings({ theme: 'system' })));
    expect(attr()).toBe('system');
  });

  it('leaves the attribute alone until settings arrive', () => {
    const backend = new FakeSettingsBackend({ settings: { theme: 'dark' } });
    backend.call = () => new Promise(() => {});
    renderWithSettings(<Harness />, backend);
    expect(attr()).toBeNull();
  });

  it('resolves the palette the CSS keys on: a forced theme, or the OS palette for system', () => {
    const root = document.createElement('html');
    applyTheme('dark', root);
    expect(root.getAttribute(SCHEME_ATTRIBUTE)).toBe('dark');
    applyTheme('light', root);
    expect(root.getAttribute(SCHEME_ATTRIBUTE)).toBe('light');
    const matchMedia = window.matchMedia;
    window.matchMedia = ((q: string) => ({ matches: q === '(prefers-color-scheme: dark)' })) as typeof window.matchMedia;
    try {
      applyTheme('system', root);
      expect(root.getAttribute(SCHEME_ATTRIBUTE)).toBe('dark');
    } finally {
      window.matchMedia = matchMedia;
    }
    applyTheme('system', root);
    expect(root.getAttribute(SCHEME_ATTRIBUTE)).toBe('light');
  });
});
