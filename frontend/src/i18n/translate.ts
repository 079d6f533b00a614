import type { Catalog, Message } from './catalog';

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

const rules = new Map<string, Intl.PluralRules>();

function pluralRules(lang: string): Intl.PluralRules {
  let r = rules.get(lang);
  if (!r) {
    try {
      r = new Intl.PluralRules(lang);
    } catch {
      r = new Intl.PluralRules(FALLBACK_LANGUAGE);
    }
    rules.set(lang, r);
  }
  return r;
}

/**
 * A message's text for its arguments: a plural message takes the form the language's rules give
 * its Count ("1 file", "2 files"); no usable Count, or a form the message lacks, gives "other".
 */
export function pick(message: Message, lang: string, args?: TArgs): string {
  if (typeof message === 'string') return message;
  const count = Number(args?.Count);
  if (args?.Count === undefined || args.Count === '' || !Number.isFinite(count)) return message.other;
  return message[pluralRules(lang).select(count)] ?? message.other;
}

/** t for one language: the language's message, else English, else the key itself. */
export function makeT(catalog: Catalog, lang: string): TFunction {
  return (key, args) => {
    const own = catalog[lang]?.[key];
    if (own !== undefined) return interpolate(pick(own, lang, args), args);
    const fallback = catalog[FALLBACK_LANGUAGE]?.[key];
    return interpolate(fallback === undefined ? key : pick(fallback, FALLBACK_LANGUAGE, args), args);
  };
}
