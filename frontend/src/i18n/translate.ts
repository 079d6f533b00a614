import type { Catalog } from './catalog';

/** A message's arguments; each is written as String(value). */
export type TArgs = Record<string, unknown>;
export type TFunction = (key: string, args?: TArgs) => string;

export const FALLBACK_LANGUAGE = 'en';

/** Substitutes go-template placeholders `{{.Name}}`; an unknown placeholder stays as written. */
export function interpolate(message: string, args?: TArgs): string {
  if (!args) return message;
  return message.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(args, name) ? String(args[name]) : whole,
  );
}

/** t for one language: the language's message, else English, else the key itself. */
export function makeT(catalog: Catalog, lang: string): TFunction {
  return (key, args) => {
    const msg = catalog[lang]?.[key] ?? catalog[FALLBACK_LANGUAGE]?.[key] ?? key;
    return interpolate(msg, args);
  };
}
