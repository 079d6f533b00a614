import { describe, expect, it } from 'vitest';
import { catalog } from '../../i18n/locales';
import { makeT } from '../../i18n/translate';
import {
  choose,
  currentChoice,
  cyclePreference,
  DEFAULT_PIN,
  nextPin,
  normalizePreference,
  preferenceLabelKey,
  sessionPreference,
  type Preference,
} from './selector';

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

  it('Shift+Tab cycles Smart → Smart · Plan → Chat → Smart', () => {
    const smart = { interactionMode: 'smart' as const, executionOverride: '' as const };
    const plan = cyclePreference(smart);
    expect(plan).toEqual({ interactionMode: 'smart', executionOverride: 'plan' });
    const chat = cyclePreference(plan);
    expect(chat).toEqual({ interactionMode: 'chat', executionOverride: '' });
    expect(cyclePreference(chat)).toEqual(smart);
  });

  it('keeps a pinned override through the cycle', () => {
    let p = { interactionMode: 'smart' as const, executionOverride: 'debug' as const } as Preference;
    let pin = nextPin(DEFAULT_PIN, p);
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      p = cyclePreference(p, pin);
      pin = nextPin(pin, p);
      seen.push(en(preferenceLabelKey(p)));
    }
    expect(seen).toEqual(['Chat', 'Smart', 'Smart · Debug', 'Chat', 'Smart', 'Smart · Debug']);
  });

  it('leaves Chat out where it is not offered (an external agent)', () => {
    const plan = { interactionMode: 'smart' as const, executionOverride: 'plan' as const };
    expect(cyclePreference(plan, 'plan', false)).toEqual({ interactionMode: 'smart', executionOverride: '' });
  });

  it('reads a session without a preference as plain Smart', () => {
    expect(sessionPreference({})).toEqual({ interactionMode: 'smart', executionOverride: '' });
    expect(sessionPreference({ interactionMode: 'smart', executionOverride: 'verified' })).toEqual({
      interactionMode: 'smart',
      executionOverride: 'verified',
    });
  });
});
