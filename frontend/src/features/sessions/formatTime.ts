const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

// One formatter per language, shared by every row and render: creating an Intl formatter costs
// far more than formatting with one, and a long list formats on every clock tick.
const relative = new Map<string, Intl.RelativeTimeFormat>();
const full = new Map<string, Intl.DateTimeFormat>();

function cached<F>(cache: Map<string, F>, lang: string, make: () => F): F {
  let f = cache.get(lang);
  if (!f) {
    f = make();
    cache.set(lang, f);
  }
  return f;
}

/** "5 minutes ago" / "5 分钟前", in the shell's language. */
export function relativeTime(iso: string, lang: string, now = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((then - now) / 1000);
  const rtf = cached(relative, lang, () => new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }));
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.round(seconds / size), unit);
  }
  return rtf.format(0, 'second');
}

/** A full date and time in the shell's language. */
export function fullDateTime(iso: string, lang: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return cached(full, lang, () => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' })).format(d);
}
