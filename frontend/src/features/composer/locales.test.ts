// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { catalog } from '../../i18n/locales';
import { MODES } from './modes/registry';

const features = fileURLToPath(new URL('..', import.meta.url));
const app = fileURLToPath(new URL('../../app', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}

describe('composer locales', () => {

  it('have every composer.* key the composer, transcript and sessions use, in both languages', () => {
    const dirs = ['composer', 'transcript', 'sessions'].map((d) => join(features, d)).concat(app);
    const used = new Set<string>();
    for (const f of dirs.flatMap(sources)) {
      for (const m of readFileSync(f, 'utf8').matchAll(/['"`]((?:composer|decision|mode|permission)\.[A-Za-z0-9_.-]+)['"`]/g)) used.add(m[1]!);
    }
    // Event names share the prefix; they are not messages.
    for (const event of ['decision.asked', 'decision.resolved']) used.delete(event);
    expect(used.size).toBeGreaterThan(60);
    for (const lang of ['en', 'zh-CN']) {
      expect([...used].filter((k) => !(k in (catalog[lang] ?? {})))).toEqual([]);
    }
  });

  it('cover every dynamic family: modes, permissions, overrides, verdict answers', () => {
    const keys = [
      ...MODES.map((m) => `composer.mode.${m.id}`),
      ...['answered', 'rejected', 'timed_out', 'cancelled', 'interrupted'].map((a) => `composer.verdict.question.${a}`),
      ...['approve', 'keep_planning', 'rejected', 'timed_out', 'cancelled', 'interrupted'].map((a) => `composer.verdict.plan.${a}`),
      ...['ask', 'auto', 'full'].map((p) => `composer.permission.hint.${p}`),
      ...['execute', 'plan', 'analyze', 'debug', 'verified'].map((o) => `composer.selector.hint.${o}`),
      ...['allow_once', 'allow_session', 'allow_always', 'reject', 'rejected', 'timed_out', 'cancelled', 'interrupted'].map((a) => `composer.verdict.asked.${a}`),
      ...['chat', 'propose', 'analyze', 'plan', 'execute', 'debug', 'verified'].map((m) => `mode.label.${m}`),
    ];
    for (const lang of ['en', 'zh-CN']) expect(keys.filter((k) => !(k in (catalog[lang] ?? {})))).toEqual([]);
  });
});
