import { useRef } from 'react';
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
/** A session's preference; one an older server did not send reads as plain Smart. */
export function sessionPreference(s: Partial<Pick<Session, 'interactionMode' | 'executionOverride'>>): Preference {
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

/** The override Shift+Tab offers after plain Smart when none was pinned yet. */
export const DEFAULT_PIN: Exclude<Override, ''> = 'plan';

/**
 * Shift+Tab: Smart → Smart · <pin> → Chat → Smart. The pin is the override last chosen (Smart ·
 * Plan when none), and cycling keeps it: Smart · Debug goes to Chat, then Smart, then Smart ·
 * Debug again. Where Chat is not offered (a session on an external agent) it is left out.
 */
export function cyclePreference(p: Preference, pin: Exclude<Override, ''> = DEFAULT_PIN, chat = true): Preference {
  const n = normalizePreference(p);
  if (n.interactionMode === 'chat') return { interactionMode: 'smart', executionOverride: '' };
  if (n.executionOverride === '') return { interactionMode: 'smart', executionOverride: pin };
  return chat ? { interactionMode: 'chat', executionOverride: '' } : { interactionMode: 'smart', executionOverride: '' };
}

/** The pin after a preference was in force: its override, else the pin as it was. */
export function nextPin(pin: Exclude<Override, ''>, p: Preference): Exclude<Override, ''> {
  const n = normalizePreference(p);
  return n.interactionMode === 'smart' && n.executionOverride !== '' ? n.executionOverride : pin;
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

/** The pin for Shift+Tab: follows every override the person's preference takes on. */
export function usePin(p: Preference): Exclude<Override, ''> {
  const pin = useRef<Exclude<Override, ''>>(DEFAULT_PIN);
  pin.current = nextPin(pin.current, p);
  return pin.current;
}
