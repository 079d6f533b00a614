import { describe, expect, it } from 'vitest';
import { interpolate, makeT } from './translate';

const catalog = {
  en: { greet: 'Hello, {{.Name}}!', only_en: 'English only', count: '{{ .N }} of {{.N}}' },
  'zh-CN': { greet: '你好，{{.Name}}！' },
};

describe('t()', () => {
  it('substitutes go-template placeholders', () => {
    expect(makeT(catalog, 'en')('greet', { Name: 'Ada' })).toBe('Hello, Ada!');
    expect(makeT(catalog, 'zh-CN')('greet', { Name: 'Ada' })).toBe('你好，Ada！');
  });

  it('replaces every occurrence, tolerating spaces, and formats numbers', () => {
    expect(makeT(catalog, 'en')('count', { N: 3 })).toBe('3 of 3');
  });

  it('leaves unknown placeholders as written', () => {
    expect(interpolate('Hi {{.Name}} {{.Other}}', { Name: 'A' })).toBe('Hi A {{.Other}}');
    expect(interpolate('Hi {{.Name}}')).toBe('Hi {{.Name}}');
  });

  it('falls back to English, then to the key', () => {
    expect(makeT(catalog, 'zh-CN')('only_en')).toBe('English only');
    expect(makeT(catalog, 'zh-CN')('missing.key')).toBe('missing.key');
    expect(makeT(catalog, 'fr')('greet', { Name: 'A' })).toBe('Hello, A!');
  });
});

describe('plural messages', () => {
  const plural = {
    en: { files: { one: '{{.Count}} file', other: '{{.Count}} files' }, lines: { one: 'one line', other: '{{.Count}} lines' } },
    'zh-CN': { files: { other: '{{.Count}} 个文件' } },
  };

  it('take the form the language gives their Count (Intl.PluralRules)', () => {
    const en = makeT(plural, 'en');
    expect(en('files', { Count: 1 })).toBe('1 file');
    expect(en('files', { Count: 2 })).toBe('2 files');
    expect(en('files', { Count: 0 })).toBe('0 files');
    expect(en('files', { Count: '1' })).toBe('1 file');
    expect(en('lines', { Count: 1 })).toBe('one line');
    expect(makeT(plural, 'zh-CN')('files', { Count: 1 })).toBe('1 个文件');
    expect(makeT(plural, 'zh-CN')('files', { Count: 2 })).toBe('2 个文件');
  });

  it('fall back to "other" without a usable Count, and to English by its own rules', () => {
    const en = makeT(plural, 'en');
    expect(en('files')).toBe('{{.Count}} files');
    expect(en('files', { Count: 'many' })).toBe('{{.Count}} files'.replace('{{.Count}}', 'many'));
    expect(makeT(plural, 'zh-CN')('lines', { Count: 1 })).toBe('one line');
    expect(makeT(plural, 'fr')('files', { Count: 1 })).toBe('1 file');
  });
});
