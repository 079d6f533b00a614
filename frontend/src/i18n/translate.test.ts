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
