// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RESTORE_SCOPES } from '../../bridge';
import { catalog } from '../../i18n/locales';

const features = fileURLToPath(new URL('..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}

describe('checkpoint locales', () => {
  it('have every key the checkpoint views, the staged review and the settings section use, in both languages', () => {
    const used = new Set<string>();
    for (const f of ['checkpoints', 'settings', 'composer/modes/approval', 'diff'].flatMap((d) => sources(join(features, d)))) {
      for (const m of readFileSync(f, 'utf8').matchAll(/['"`]((?:checkpoint|settings\.checkpoints|composer\.review)\.[A-Za-z0-9_.-]+)['"`]/g)) {
        used.add(m[1]!);
      }
    }
    for (const s of ['pending', 'accepted', 'reverted']) used.add(`checkpoint.state.${s}`);
    for (const a of ['create', 'modify', 'delete']) used.add(`checkpoint.action.${a}`).add(`checkpoint.restoreAction.${a}`);
    for (const s of RESTORE_SCOPES) used.add(`checkpoint.scope.${s}`).add(`checkpoint.restore.confirm.${s}`).add(`checkpoint.restored.${s}`);
    for (const a of ['accept', 'revert']) used.add(`checkpoint.reviewed.${a}.hunks`).add(`checkpoint.reviewed.${a}.file`);
    for (const o of ['link', 'large_file', 'binary', 'too_large']) used.add(`composer.diff.omitted.${o}`);
    expect(used.size).toBeGreaterThan(40);
    for (const lang of ['en', 'zh-CN']) {
      expect([...used].filter((k) => !catalog[lang]?.[k]).map((k) => `${lang}: ${k}`)).toEqual([]);
    }
  });
});
