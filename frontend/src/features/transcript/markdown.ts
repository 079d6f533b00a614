import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const md = new Marked({ gfm: true, breaks: false });

let hooked = false;
function purifier() {
  if (!hooked) {
    hooked = true;
    // Links leave the app window; they never navigate it.
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
  }
  return DOMPurify;
}

/** Markdown from the agent as sanitized HTML: no scripts, no event handlers, no forms, no styles. */
export function renderMarkdown(source: string): string {
  const html = md.parse(source, { async: false });
  return purifier().sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe'],
    FORBID_ATTR: ['style'],
  });
}

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
