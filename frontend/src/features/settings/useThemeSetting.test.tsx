import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings, FakeSettingsBackend } from './testing/fakeSettingsBackend';
import { renderWithSettings } from './testing/renderWithSettings';
import { THEME_ATTRIBUTE, useThemeSetting } from './useThemeSetting';

function Harness() {
  useThemeSetting();
  return null;
}

const attr = () => document.documentElement.getAttribute(THEME_ATTRIBUTE);

afterEach(() => {
  document.documentElement.removeAttribute(THEME_ATTRIBUTE);
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
});
