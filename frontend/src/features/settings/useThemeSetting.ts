import { useEffect } from 'react';
import { THEMES, type Theme } from '../../bridge/settingsApi';
import { useAppSettings } from './appSettingsStore';

/** The attribute on <html> the theme CSS keys on: "system" follows the OS, "light"/"dark" force it. */
export const THEME_ATTRIBUTE = 'data-theme';
const CACHE_KEY = 'agentdesk.theme';

export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.setAttribute(THEME_ATTRIBUTE, theme);
}

function cachedTheme(): Theme | null {
  try {
    const v = window.localStorage.getItem(CACHE_KEY);
    return THEMES.includes(v as Theme) ? (v as Theme) : null;
  } catch {
    return null;
  }
}

function cacheTheme(theme: Theme) {
  try {
    window.localStorage.setItem(CACHE_KEY, theme);
  } catch {
    // storage may be unavailable; the theme still applies once settings load
  }
}

// The last theme seen applies before settings arrive, so a forced theme does not flash on reload.
if (typeof document !== 'undefined') {
  const early = cachedTheme();
  if (early) applyTheme(early);
}

/** Call once in the shell: keeps <html data-theme> in step with Settings.theme, from any window. */
export function useThemeSetting(): Theme | null {
  const [{ settings }] = useAppSettings();
  const theme = settings?.theme ?? null;
  useEffect(() => {
    if (!theme) return;
    applyTheme(theme);
    cacheTheme(theme);
  }, [theme]);
  return theme;
}
