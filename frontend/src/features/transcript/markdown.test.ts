import { describe, expect, it } from 'vitest';
import { drawMarkdown, markdownBlocks, renderMarkdown, type MarkdownChunk } from './markdown';

/** Pieces of Markdown an answer is made of, the awkward ones included. */
const PIECES = [
  'A paragraph with *emphasis*, `code` and a [link](https://example.test).',
  'Two lines\nof one paragraph.',
  '# A heading',
  'Setext heading\n===',
  '---',
  '- one\n- two\n- three',
  '- loose one\n\n- loose two',
  '1. first\n2. second',
  '3. third, continuing',
  '- item\n\n  still the item, indented',
  '- outer\n  - inner\n\n  - inner, loose',
  '```go\nfunc main() {\n\n\tprintln("blank line inside")\n}\n```',
  '~~~\nfence of tildes\n\n```\nnot a close\n~~~',
  '    indented code\n\n    more of it',
  '> a quote\n> on two lines',
  '> another quote',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '<div>an html block</div>',
  '<img src=x onerror="alert(1)">',
  'Text with a trailing  \nhard break.',
  '* star list\n* of two',
  '+ plus list',
  '10) paren list',
];

/** A small seeded generator, so a failure names a document that can be rebuilt. */
function seeded(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const drawnInBlocks = (source: string) => markdownBlocks(source).map(renderMarkdown).join('');

describe('Markdown drawn block by block', () => {
  it('cuts after blank lines before a line in the first column, and the blocks joined are the source', () => {
    const source = 'one\n\ntwo\n- a\n\n- b\n\n  c\n\nthree\n';
    const blocks = markdownBlocks(source);
    expect(blocks).toEqual(['one\n\n', 'two\n- a\n\n- b\n\n  c\n\n', 'three\n']);
    expect(blocks.join('')).toBe(source);
  });

  it('never cuts inside a fenced code block, and keeps whole what may tie blocks together', () => {
    expect(markdownBlocks('```\na\n\nb\n```\n\nafter')).toEqual(['```\na\n\nb\n```\n\n', 'after']);
    expect(markdownBlocks('see [the docs][d]\n\nmore\n\n[d]: https://example.test')).toHaveLength(1);
    expect(markdownBlocks('<pre>\na\n\nb\n</pre>\n\nafter')).toHaveLength(1);
    expect(markdownBlocks('<!-- a\n\nb -->\n\nafter')).toHaveLength(1);
  });

  it('draws every piece the same apart as together', () => {
    for (const a of PIECES) {
      for (const b of PIECES) {
        const source = `${a}\n\n${b}\n`;
        expect(drawnInBlocks(source), JSON.stringify(source)).toBe(renderMarkdown(source));
      }
    }
  });

  it('draws documents of many pieces the same apart as together, as they stream in', () => {
    const random = seeded(29);
    for (let doc = 0; doc < 60; doc++) {
      const parts = Array.from({ length: 3 + Math.floor(random() * 8) }, () => PIECES[Math.floor(random() * PIECES.length)]);
      const source = parts.join(random() < 0.5 ? '\n\n' : '\n\n\n');
      // Cut anywhere, as a stream is: the text drawn so far is drawn the same either way.
      const cut = source.slice(0, Math.floor(random() * source.length));
      for (const text of [source, cut]) expect(drawnInBlocks(text), JSON.stringify(text)).toBe(renderMarkdown(text));
    }
  });

  it('draws a text as it streams in the same as drawn whole, rendering only what is new', () => {
    const random = seeded(7);
    for (let doc = 0; doc < 20; doc++) {
      const source = Array.from({ length: 6 + Math.floor(random() * 6) }, () => PIECES[Math.floor(random() * PIECES.length)]).join('\n\n');
      let chunks: MarkdownChunk[] = [];
      for (let shown = 0; shown < source.length; ) {
        shown = Math.min(source.length, shown + 1 + Math.floor(random() * 40));
        const text = source.slice(0, shown);
        const next = drawMarkdown(text, chunks);
        expect(next.map((c) => c.html).join(''), JSON.stringify(text)).toBe(renderMarkdown(text));
        expect(next.map((c) => c.text).join('')).toBe(text);
        // Of what was drawn before, no more than its last two chunks are drawn again.
        const kept = next.filter((c) => chunks.includes(c)).length;
        expect(kept).toBeGreaterThanOrEqual(Math.min(chunks.length - 2, next.length));
        chunks = next;
      }
    }
  });

  it('keeps no chunk that a completed line joins to what follows', () => {
    const before = drawMarkdown('1. a\n\n2', []);
    expect(before.map((c) => c.text)).toEqual(['1. a\n\n', '2']);
    const after = drawMarkdown('1. a\n\n2. b', before);
    expect(after.map((c) => c.text)).toEqual(['1. a\n\n2. b']);
    expect(after.map((c) => c.html).join('')).toBe(renderMarkdown('1. a\n\n2. b'));
  });
});
