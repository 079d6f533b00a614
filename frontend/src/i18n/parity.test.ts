// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../bridge';
import { catalogOf, isPlural, parityProblems, parseLocalePath, type LocaleFile } from './catalog';
import { catalog, localeFiles } from './locales';

const srcDir = fileURLToPath(new URL('..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}

describe('locales', () => {
  it('are found by the glob, in both languages', () => {
    expect(localeFiles().length).toBeGreaterThanOrEqual(2);
    const shell = localeFiles().filter((f) => f.area === 'shell').map((f) => f.lang).sort();
    expect(shell).toEqual(['en', 'zh-CN']);
  });

  it('hold only strings and plural messages, so the page may take them as they are', () => {
    const repoLocales = fileURLToPath(new URL('../../../locales', import.meta.url));
    const odd: string[] = [];
    for (const name of readdirSync(repoLocales).filter((n) => n.endsWith('.json'))) {
      const raw = JSON.parse(readFileSync(join(repoLocales, name), 'utf8')) as Record<string, unknown>;
      for (const [k, v] of Object.entries(raw)) if (typeof v !== 'string' && !isPlural(v)) odd.push(`${name}: ${k}`);
    }
    expect(odd).toEqual([]);
    // Every message of every file reaches the page's catalog.
    for (const f of localeFiles()) expect(catalog[f.lang]).toMatchObject(f.messages);
  });

  it('define each key once in a language: one file gives it its text, for the page and for Go alike', () => {
    const where = new Map<string, string>();
    const twice: string[] = [];
    for (const f of localeFiles()) {
      for (const k of Object.keys(f.messages)) {
        const id = `${f.lang}/${k}`;
        if (where.has(id)) twice.push(`${k} in ${where.get(id)} and ${f.area}.${f.lang}.json`);
        else where.set(id, `${f.area}.${f.lang}.json`);
      }
    }
    expect(twice).toEqual([]);
  });

  it('catalogOf merges the files of a language and leaves out names that are not <area>.<lang>.json', () => {
    const built = catalogOf({
      '/l/a.en.json': { one: 'One' },
      '/l/b.en.json': { two: 'Two' },
      '/l/a.zh-CN.json': { one: '一' },
      '/l/notes.json': { x: 'X' },
    });
    expect(built).toEqual({ en: { one: 'One', two: 'Two' }, 'zh-CN': { one: '一' } });
  });

  it('have every key in every language', () => {
    expect(parityProblems(localeFiles(), LANGUAGES)).toEqual([]);
  });

  it('parity check fails on a missing key, a missing file and different placeholders', () => {
    const files: LocaleFile[] = [
      { area: 'a', lang: 'en', messages: { one: 'One', two: 'Two {{.N}}', three: 'x' } },
      { area: 'a', lang: 'zh-CN', messages: { one: '一', two: '二', three: '三' } },
      { area: 'b', lang: 'en', messages: { k: 'K' } },
      { area: 'c', lang: 'zh-CN', messages: { k: 'K' } },
      { area: 'c', lang: 'en', messages: {} },
    ];
    const problems = parityProblems(files, LANGUAGES);
    expect(problems).toContain('a: "two" has different placeholders across languages');
    expect(problems).toContain('b.zh-CN.json is missing');
    expect(problems).toContain('c.en.json lacks "k"');
    expect(problems).toHaveLength(3);
  });

  it('parse <area>.<lang>.json names', () => {
    expect(parseLocalePath('../../../locales/shell.zh-CN.json')).toEqual({ area: 'shell', lang: 'zh-CN' });
    expect(parseLocalePath('/x/errors.en.json')).toEqual({ area: 'errors', lang: 'en' });
    expect(parseLocalePath('/x/notes.json')).toBeNull();
  });

  it('cover every key the frontend source uses', () => {
    const en = catalog.en ?? {};
    const used = new Set<string>();
    for (const file of sourceFiles(srcDir)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/['"`]((?:shell|error)\.[A-Za-z0-9_.-]+)['"`]/g)) if (m[1]) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(20);
    const missing = [...used].filter((k) => !(k in en) && !k.endsWith('.'));
    expect(missing).toEqual([]);
  });
});

describe('plural messages in the locales', () => {
  it('are read into the catalog, and the real ones pick their form', async () => {
    const { makeT } = await import('./translate');
    const en = makeT(catalog, 'en');
    expect(en('composer.code.hiddenLines', { Count: 1 })).toBe('… 1 more line …');
    expect(en('composer.code.hiddenLines', { Count: 2 })).toBe('… 2 more lines …');
    expect(makeT(catalog, 'zh-CN')('checkpoint.turnChanged', { Count: 1 })).toBe('本轮更改了 1 个文件');
  });

  it('are told apart from anything else shaped like an object', () => {
    expect(isPlural({ one: 'a', other: 'b' })).toBe(true);
    expect(isPlural({ other: 'b' })).toBe(true);
    expect(isPlural({ one: 'a' })).toBe(false);
    expect(isPlural({ single: 'a', other: 'b' })).toBe(false);
    expect(isPlural({ one: '', other: 'b' })).toBe(false);
    expect(isPlural(['a'])).toBe(false);
  });

  it("compare placeholders by their other form", () => {
    const files: LocaleFile[] = [
      { area: 'p', lang: 'en', messages: { n: { one: 'one file', other: '{{.Count}} files' } } },
      { area: 'p', lang: 'zh-CN', messages: { n: '{{.Count}} 个文件' } },
    ];
    expect(parityProblems(files, LANGUAGES)).toEqual([]);
  });
});
