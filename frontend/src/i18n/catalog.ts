/**
 * Locale files are `<area>.<lang>.json`: flat maps of key -> message with `{{.Arg}}` placeholders.
 * A message that says a count is an object of CLDR plural forms, {"one": …, "other": …}, picked by
 * its Count argument (go-i18n reads the same files the same way); "other" is always there.
 */

export const PLURAL_FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
export type PluralForm = (typeof PLURAL_FORMS)[number];
export type PluralMessage = Partial<Record<PluralForm, string>> & { other: string };
export type Message = string | PluralMessage;

export type Messages = Record<string, Message>;
export type Catalog = Record<string, Messages>;

export interface LocaleFile {
  area: string;
  lang: string;
  messages: Messages;
}

/** Parses a path like `../../../locales/shell.zh-CN.json`; null when the name is not `<area>.<lang>.json`. */
export function parseLocalePath(path: string): { area: string; lang: string } | null {
  const base = path.split('/').pop() ?? '';
  const m = /^(.+)\.([A-Za-z]{2,3}(?:-[A-Za-z0-9]+)*)\.json$/.exec(base);
  if (!m || !m[1] || !m[2]) return null;
  return { area: m[1], lang: m[2] };
}

export function toLocaleFiles(modules: Record<string, unknown>): LocaleFile[] {
  const files: LocaleFile[] = [];
  for (const [path, mod] of Object.entries(modules)) {
    const name = parseLocalePath(path);
    if (!name) continue;
    const raw = (mod as { default?: unknown })?.default ?? mod;
    const messages: Messages = {};
    if (typeof raw === 'object' && raw !== null) {
      for (const [k, v] of Object.entries(raw)) if (typeof v === 'string' || isPlural(v)) messages[k] = v;
    }
    files.push({ ...name, messages });
  }
  return files.sort((a, b) => `${a.area}.${a.lang}`.localeCompare(`${b.area}.${b.lang}`));
}

/**
 * The catalog straight from the bundled files (path -> messages): each file's map is added to its
 * language's in place. It runs as the page starts, before the first paint, so it neither copies
 * nor checks each message (toLocaleFiles does, for the tests, which hold the files to strings).
 */
export function catalogOf(modules: Record<string, Messages>): Catalog {
  const catalog: Catalog = {};
  for (const [path, messages] of Object.entries(modules)) {
    const name = parseLocalePath(path);
    if (name) Object.assign((catalog[name.lang] ??= {}), messages);
  }
  return catalog;
}

/** A plural message: only plural forms, each a non-empty string, "other" among them. */
export function isPlural(v: unknown): v is PluralMessage {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const entries = Object.entries(v);
  return (
    entries.length > 0 &&
    entries.every(([form, text]) => (PLURAL_FORMS as readonly string[]).includes(form) && typeof text === 'string' && text.trim() !== '') &&
    typeof (v as Record<string, unknown>).other === 'string'
  );
}

/** The text that names every placeholder: a string itself, a plural message's "other" form. */
export const otherForm = (m: Message): string => (typeof m === 'string' ? m : m.other);

const placeholders = (msg: Message) =>
  [...otherForm(msg).matchAll(/\{\{\s*\.(\w+)\s*\}\}/g)].map((m) => m[1]).sort().join(',');

/**
 * Every area must exist in every language with exactly the same keys and the same placeholders.
 * Returns human-readable problems; empty means the locales agree.
 */
export function parityProblems(files: LocaleFile[], languages: readonly string[]): string[] {
  const problems: string[] = [];
  const areas = [...new Set(files.map((f) => f.area))].sort();
  for (const area of areas) {
    const byLang = new Map(files.filter((f) => f.area === area).map((f) => [f.lang, f.messages]));
    const allKeys = new Set<string>();
    for (const msgs of byLang.values()) for (const k of Object.keys(msgs)) allKeys.add(k);
    for (const lang of languages) {
      const msgs = byLang.get(lang);
      if (!msgs) {
        problems.push(`${area}.${lang}.json is missing`);
        continue;
      }
      for (const key of [...allKeys].sort()) {
        const msg = msgs[key];
        if (msg === undefined) problems.push(`${area}.${lang}.json lacks "${key}"`);
        else if (otherForm(msg).trim() === '') problems.push(`${area}.${lang}.json has an empty "${key}"`);
      }
    }
    for (const key of [...allKeys].sort()) {
      const shapes = new Set(
        languages.map((l) => byLang.get(l)?.[key]).filter((m): m is string => m !== undefined).map(placeholders),
      );
      if (shapes.size > 1) problems.push(`${area}: "${key}" has different placeholders across languages`);
    }
    for (const lang of byLang.keys()) {
      if (!languages.includes(lang)) problems.push(`${area}.${lang}.json is not a shipped language`);
    }
  }
  return problems;
}
