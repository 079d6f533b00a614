// Apart from markdown.ts, so what only needs a plan's title does not load the Markdown parser.

const HEADING = /^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/;

/** The plan's title (its first heading) and the Markdown without that heading, so it is not shown twice. */
export function splitTitle(source: string): { title: string; body: string } {
  const lines = source.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  const m = first >= 0 ? HEADING.exec(lines[first] ?? '') : null;
  if (m?.[1]) return { title: m[1].trim(), body: lines.slice(first + 1).join('\n') };
  const any = lines.map((l) => HEADING.exec(l)).find(Boolean);
  return { title: any?.[1]?.trim() ?? '', body: source };
}
