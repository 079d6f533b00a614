import { OVERRIDES, type Interaction, type Override, type Session } from '../../bridge';

/** The selector's value: an interaction mode and, with Smart only, an execution override. */
export interface Preference {
  interactionMode: Interaction;
  executionOverride: Override;
}

export const DEFAULT_PREFERENCE: Preference = { interactionMode: 'smart', executionOverride: '' };

/** Chat with an override is invalid (R-MODE-1): Chat always drops it. */
export function normalizePreference(p: Preference): Preference {
  if (p.interactionMode === 'chat') return { interactionMode: 'chat', executionOverride: '' };
  return { interactionMode: 'smart', executionOverride: OVERRIDES.includes(p.executionOverride as never) ? p.executionOverride : '' };
}

export function samePreference(a: Preference, b: Preference): boolean {
  return a.interactionMode === b.interactionMode && a.executionOverride === b.executionOverride;
}

/** A session's stored preference; a server that does not send one means the default. */
export function sessionPreference(s: Pick<Session, 'interactionMode' | 'executionOverride'>): Preference {
  return normalizePreference({
    interactionMode: s.interactionMode === 'chat' ? 'chat' : 'smart',
    executionOverride: s.executionOverride ?? '',
  });
}

/** The selector label: "Smart", "Chat", or "Smart · Plan" for an override (mode.label.*). */
export function preferenceLabelKey(p: Preference): string {
  const n = normalizePreference(p);
  if (n.interactionMode === 'chat') return 'mode.label.chat';
  return n.executionOverride ? `mode.label.smart_${n.executionOverride}` : 'mode.label.smart';
}

/** Shift+Tab: Smart (with or without an override) → Chat → plain Smart. */
export function cyclePreference(p: Preference): Preference {
  return p.interactionMode === 'chat' ? { interactionMode: 'smart', executionOverride: '' } : { interactionMode: 'chat', executionOverride: '' };
}

/** What a menu choice means: Smart and Chat at the top level (plain Smart clears the override), an override under Advanced…. */
export type SelectorChoice = 'smart' | 'chat' | Exclude<Override, ''>;

export function choose(choice: SelectorChoice): Preference {
  if (choice === 'smart' || choice === 'chat') return { interactionMode: choice, executionOverride: '' };
  return { interactionMode: 'smart', executionOverride: choice };
}

/** The choice a preference shows as checked in the menu. */
export function currentChoice(p: Preference): SelectorChoice {
  const n = normalizePreference(p);
  if (n.interactionMode === 'chat') return 'chat';
  return n.executionOverride || 'smart';
}
