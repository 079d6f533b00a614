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

/** A document that takes every rule of the lexer, block and inline, and every common tag of the purifier. */
const WARM_SAMPLE =
  '# a\n\nb *c* **d** `e` [f](https://g.test) ~~h~~ <https://i.test>\n\n- j\n1. k\n\n> l\n\n```\nm\n```\n\n' +
  '| n | o |\n|---|---|\n| p | q |\n\nr\n---\n\n<b>s</b>\n\n    t\n\n***\n';
let warmed = false;

/**
 * Parses a sample a few times once the page is idle: the engine compiles each of the lexer's
 * regular expressions the first time it runs and again, to machine code, once it runs again.
 * Profiled on two shared cores, the first answer of a page took 15 to 20 ms to parse, most of
 * it that compiling, inside the drawing that shows the turn's end.
 */
export function warmMarkdown(): void {
  if (warmed) return;
  warmed = true;
  const run = () => {
    for (let i = 0; i < 3; i++) renderMarkdown(WARM_SAMPLE);
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 0);
}
