import type { TFunction } from '../../i18n/translate';

/** A message when the locale has one, else the fallback (tool names and schema titles from the server). */
export function tOr(t: TFunction, key: string, fallback: string, args?: Record<string, string | number>): string {
  const s = t(key, args);
  return s === key ? fallback : s;
}

/** "Run command" for bash, or the raw name of a tool the locales do not know (an external agent's). */
export const toolLabel = (t: TFunction, name: string) => (name ? tOr(t, `tool.${name}.label`, name) : t('composer.tool.unknown'));
