import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

// Only the core and these grammars are bundled (not highlight.js's 190 languages): enough for the
// files an agent usually writes, at a fraction of the size.
const GRAMMARS = { bash, c, cpp, css, go, ini, java, javascript, json, markdown, python, rust, sql, typescript, xml, yaml };
for (const [name, grammar] of Object.entries(GRAMMARS)) hljs.registerLanguage(name, grammar);

const BY_EXTENSION: Record<string, keyof typeof GRAMMARS> = {
  sh: 'bash', bash: 'bash', zsh: 'bash',
  c: 'c', h: 'c',
  cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp',
  css: 'css',
  go: 'go',
  ini: 'ini', toml: 'ini', cfg: 'ini', conf: 'ini',
  java: 'java',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  json: 'json',
  md: 'markdown', markdown: 'markdown',
  py: 'python',
  rs: 'rust',
  sql: 'sql',
  ts: 'typescript', tsx: 'typescript', mts: 'typescript',
  html: 'xml', htm: 'xml', xml: 'xml', svg: 'xml',
  yml: 'yaml', yaml: 'yaml',
};

/** The grammar for a path, by its extension (or a shebang line for scripts); null: plain text. */
export function languageOf(path: string, firstLine = ''): string | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  if (ext && BY_EXTENSION[ext]) return BY_EXTENSION[ext]!;
  if (/^#!.*\b(sh|bash|zsh)\b/.test(firstLine)) return 'bash';
  if (/^#!.*\bpython/.test(firstLine)) return 'python';
  if (/^#!.*\bnode\b/.test(firstLine)) return 'javascript';
  return null;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The text highlighted as a whole (so a comment or a string over several lines is right), cut
 * back into lines of HTML: a span open at a line's end is closed there and opened again on the
 * next. highlight.js escapes the text itself; only its own spans are markup.
 */
export function highlightLines(text: string, language: string | null): string[] {
  const html = language ? hljs.highlight(text, { language, ignoreIllegals: true }).value : escape(text);
  const out: string[] = [];
  const open: string[] = [];
  let line = '';
  const tag = /<span[^>]*>|<\/span>|\n/g;
  let last = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    line += html.slice(last, m.index);
    last = tag.lastIndex;
    if (m[0] === '\n') {
      out.push(line + '</span>'.repeat(open.length));
      line = open.join('');
    } else if (m[0] === '</span>') {
      open.pop();
      line += m[0];
    } else {
      open.push(m[0]);
      line += m[0];
    }
  }
  line += html.slice(last);
  out.push(line);
  return out;
}
