import { useEffect } from 'react';
import { THEMES, type Theme } from '../../bridge/settingsApi';
import { useAppSettings } from './appSettingsStore';

/** The attribute on <html> that holds the chosen theme: "system" follows the OS, "light"/"dark" force it. */
export const THEME_ATTRIBUTE = 'data-theme';
/** The attribute on <html> the theme CSS keys on: the palette in use, "light" or "dark", the theme resolved. */
export const SCHEME_ATTRIBUTE = 'data-scheme';
const CACHE_KEY = 'agentdesk.theme';

/** The OS's dark mode, where the browser can tell (never in tests without matchMedia). */
function osDark(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-color-scheme: dark)')
    : null;
}

/** The palette for a theme: a forced one, or the OS's for "system" and while the theme is not known yet. */
function schemeOf(theme: string | null): 'light' | 'dark' {
  if (theme === 'light' || theme === 'dark') return theme;
  return osDark()?.matches ? 'dark' : 'light';
}

function applyScheme(root: HTMLElement) {
  root.setAttribute(SCHEME_ATTRIBUTE, schemeOf(root.getAttribute(THEME_ATTRIBUTE)));
}

export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.setAttribute(THEME_ATTRIBUTE, theme);
  applyScheme(root);
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

// The last theme seen applies before settings arrive, so a forced theme does not flash on reload;
// the OS's palette until then otherwise, and whenever the OS switches while it is followed.
if (typeof document !== 'undefined') {
  const early = cachedTheme();
  if (early) applyTheme(early);
  else applyScheme(document.documentElement);
  osDark()?.addEventListener('change', () => applyScheme(document.documentElement));
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
