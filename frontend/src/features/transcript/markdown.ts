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

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const BLANK = /^[ \t]*$/;
const LIST_ITEM = /^([-*+]|\d{1,9}[.)])([ \t]|$)/;
/** What may tie blocks together across blank lines: a link reference definition, or an HTML block that may hold them. */
const WHOLE_ONLY = /^ {0,3}(\[[^\]\n]+\]:|<(?:pre|script|style|textarea)\b|<!--|<\?|<![A-Za-z]|<!\[CDATA\[)/im;

/**
 * The source cut into blocks that Markdown draws the same apart as together, so a long answer
 * that grows is drawn again only from its last block: a cut comes after blank lines (outside a
 * fenced code block) that a line starting in the first column, not a list item, follows. A link
 * reference definition or an HTML block that may hold blank lines keeps the source whole. The
 * blocks joined are the source.
 */
export function markdownBlocks(source: string): string[] {
  if (WHOLE_ONLY.test(source)) return [source];
  const blocks: string[] = [];
  let start = 0;
  let fence = '';
  let blank = false;
  for (let pos = 0; pos < source.length; ) {
    const nl = source.indexOf('\n', pos);
    const line = source.slice(pos, nl < 0 ? source.length : nl);
    if (fence) {
      const m = FENCE.exec(line);
      if (m?.[1] && m[1][0] === fence[0] && m[1].length >= fence.length && BLANK.test(line.slice(m[0].length))) fence = '';
    } else if (BLANK.test(line)) {
      blank = true;
    } else {
      if (blank && pos > start && !/^[ \t]/.test(line) && !LIST_ITEM.test(line)) {
        blocks.push(source.slice(start, pos));
        start = pos;
      }
      blank = false;
      fence = FENCE.exec(line)?.[1] ?? '';
    }
    pos = nl < 0 ? source.length : nl + 1;
  }
  blocks.push(source.slice(start));
  return blocks;
}

/** A run of whole blocks of a Markdown source, and its HTML. */
export interface MarkdownChunk {
  text: string;
  html: string;
}

/**
 * The source drawn as chunks of whole blocks, keeping the chunks of the draw before that it still
 * begins with (a text that grows keeps all but its last), so a streaming answer costs its new
 * blocks, in one render, and its last block, not the whole text again. A chunk is kept only if it
 * still ends where a block does: a line completed since can join what was a block of its own.
 */
export function drawMarkdown(source: string, before: readonly MarkdownChunk[]): MarkdownChunk[] {
  const blocks = markdownBlocks(source);
  const ends = new Set<number>();
  let end = 0;
  for (const b of blocks) ends.add((end += b.length));
  const last = blocks.at(-1) ?? '';
  const settled = source.length - last.length;
  const chunks: MarkdownChunk[] = [];
  let at = 0;
  for (const c of before) {
    const to = at + c.text.length;
    if (to > settled || !ends.has(to) || !source.startsWith(c.text, at)) break;
    chunks.push(c);
    at = to;
  }
  const rest = [source.slice(at, settled), last].filter((text) => text !== '');
  for (const text of rest) chunks.push({ text, html: renderMarkdown(text) });
  return chunks;
}
