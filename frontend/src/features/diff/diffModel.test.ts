// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { buildDiff, fileLines, sideBySide } from './diffModel';
import { highlightLines, languageOf } from './highlight';

describe('the diff of an approval', () => {
  const before = 'package a\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() {}\n';
  const after = 'package a\n\nfunc A() int {\n\treturn 2\n}\n\nfunc B() {}\n';

  it('numbers each line in the old and the new file, with context around the change', () => {
    const d = buildDiff(before, after);
    expect(d.added).toBe(1);
    expect(d.removed).toBe(1);
    expect(d.hunks).toHaveLength(1);
    const lines = d.hunks[0]!.lines;
    expect(lines.find((l) => l.kind === 'del')).toEqual({ kind: 'del', text: '\treturn 1', old: 4 });
    expect(lines.find((l) => l.kind === 'add')).toEqual({ kind: 'add', text: '\treturn 2', new: 4 });
    expect(lines[0]).toEqual({ kind: 'ctx', text: 'package a', old: 1, new: 1 });
  });

  it('pairs removed and added lines side by side', () => {
    const rows = sideBySide(buildDiff('a\nb\nc\n', 'a\nB\nB2\nc\n').hunks[0]!);
    expect(rows.map((r) => [r.left?.text ?? null, r.right?.text ?? null])).toEqual([
      ['a', 'a'],
      ['b', 'B'],
      [null, 'B2'],
      ['c', 'c'],
    ]);
  });

  it('shows a new file as its lines', () => {
    expect(fileLines('#!/bin/sh\necho hi\n')).toEqual(['#!/bin/sh', 'echo hi']);
    expect(fileLines('')).toEqual([]);
  });
});

describe('syntax highlighting, line by line', () => {
  it('picks the grammar by extension or shebang', () => {
    expect(languageOf('src/a.ts')).toBe('typescript');
    expect(languageOf('hello.sh')).toBe('bash');
    expect(languageOf('run', '#!/bin/sh')).toBe('bash');
    expect(languageOf('notes.txt')).toBeNull();
  });

  it('keeps a span open over several lines valid on each', () => {
    const lines = highlightLines('/* one\ntwo */\nconst x = "<b>";', 'javascript');
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(l.split('<span').length - 1).toBe(l.split('</span>').length - 1);
    expect(lines[1]).toContain('hljs-comment');
    expect(lines[2]).toContain('&lt;b&gt;');
    expect(lines[2]).not.toContain('<b>');
  });

  it('escapes plain text', () => {
    expect(highlightLines('<script>x</script>\n&', null)).toEqual(['&lt;script&gt;x&lt;/script&gt;', '&amp;']);
  });
});
