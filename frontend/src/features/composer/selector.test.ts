import { describe, expect, it } from 'vitest';
import { catalog } from '../../i18n/locales';
import { makeT } from '../../i18n/translate';
import { choose, currentChoice, cyclePreference, normalizePreference, preferenceLabelKey, sessionPreference } from './selector';

describe('the selector', () => {
  const en = makeT(catalog, 'en');
  const zh = makeT(catalog, 'zh-CN');

  it('labels Smart, Chat and "Smart · Plan"', () => {
    expect(en(preferenceLabelKey({ interactionMode: 'smart', executionOverride: '' }))).toBe('Smart');
    expect(en(preferenceLabelKey({ interactionMode: 'chat', executionOverride: '' }))).toBe('Chat');
    expect(en(preferenceLabelKey({ interactionMode: 'smart', executionOverride: 'plan' }))).toBe('Smart · Plan');
    expect(zh(preferenceLabelKey({ interactionMode: 'smart', executionOverride: 'plan' }))).toBe('智能 · 计划');
    for (const o of ['execute', 'plan', 'analyze', 'debug', 'verified'] as const) {
      const key = preferenceLabelKey({ interactionMode: 'smart', executionOverride: o });
      expect(en(key)).not.toBe(key);
    }
  });

  it('plain Smart clears the override; an Advanced choice sets it with Smart', () => {
    expect(choose('smart')).toEqual({ interactionMode: 'smart', executionOverride: '' });
    expect(choose('debug')).toEqual({ interactionMode: 'smart', executionOverride: 'debug' });
    expect(choose('chat')).toEqual({ interactionMode: 'chat', executionOverride: '' });
  });

  it('never shows Chat with an override (it is invalid)', () => {
    const bad = { interactionMode: 'chat' as const, executionOverride: 'plan' as const };
    expect(normalizePreference(bad)).toEqual({ interactionMode: 'chat', executionOverride: '' });
    expect(preferenceLabelKey(bad)).toBe('mode.label.chat');
    expect(currentChoice(bad)).toBe('chat');
  });

  it('Shift+Tab cycles Smart and Chat; an override cycles to Chat, and back to plain Smart', () => {
    const plan = { interactionMode: 'smart' as const, executionOverride: 'plan' as const };
    const chat = cyclePreference(plan);
    expect(chat).toEqual({ interactionMode: 'chat', executionOverride: '' });
    expect(cyclePreference(chat)).toEqual({ interactionMode: 'smart', executionOverride: '' });
  });

  it('reads a session without a preference as plain Smart', () => {
    expect(sessionPreference({})).toEqual({ interactionMode: 'smart', executionOverride: '' });
    expect(sessionPreference({ interactionMode: 'smart', executionOverride: 'verified' })).toEqual({
      interactionMode: 'smart',
      executionOverride: 'verified',
    });
  });
});
