import type { TFunction } from '../../i18n/translate';

/** What a shortcut does. The global key handler, the shortcuts sheet and Settings read this one table. */
export type KeyAction =
  | 'approve'
  | 'allowSession'
  | 'reject'
  | 'newSession'
  | 'settings'
  | 'focusComposer'
  | 'nextDecision'
  | 'previousDecision'
  | 'jumpLatest'
  | 'shortcuts';

/** One key press: `mod` is Ctrl on Linux and Windows, ⌘ on macOS. */
export interface Chord {
  key: string;
  mod?: boolean;
  shift?: boolean;
  alt?: boolean;
}

/** One shortcut. A chord without Ctrl or Alt never fires while the person types in a text field. */
export interface KeyBinding {
  action: KeyAction;
  chord: Chord;
}

/** The keyboard map: Linux-first, so the modifier is Ctrl. */
export const KEYMAP: readonly KeyBinding[] = [
  { action: 'approve', chord: { key: 'Enter', mod: true } },
  { action: 'allowSession', chord: { key: 'Enter', mod: true, shift: true } },
  { action: 'reject', chord: { key: 'Backspace', mod: true, shift: true } },
  { action: 'newSession', chord: { key: 'n', mod: true } },
  { action: 'settings', chord: { key: ',', mod: true } },
  { action: 'focusComposer', chord: { key: 'k', mod: true } },
  { action: 'nextDecision', chord: { key: 'ArrowDown', alt: true } },
  { action: 'previousDecision', chord: { key: 'ArrowUp', alt: true } },
  { action: 'jumpLatest', chord: { key: 'End', alt: true } },
  { action: 'shortcuts', chord: { key: '?' } },
];

export const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || '');

interface KeyEventLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** Whether the event is this chord. `?` is typed with Shift on most layouts, so Shift is not asked of it. */
export function matches(chord: Chord, e: KeyEventLike, mac = isMac()): boolean {
  const mod = mac ? e.metaKey : e.ctrlKey;
  const other = mac ? e.ctrlKey : e.metaKey;
  if (!!chord.mod !== mod || other || !!chord.alt !== e.altKey) return false;
  const printable = chord.key.length === 1 && !/[a-z]/i.test(chord.key);
  if (!printable && !!chord.shift !== e.shiftKey) return false;
  return e.key.toLowerCase() === chord.key.toLowerCase();
}

/** Whether a chord may fire while the focus is in a text field: only with a modifier. */
export const firesInText = (chord: Chord) => !!chord.mod || !!chord.alt;

/** The binding a key press is, if any. */
export function bindingFor(e: KeyEventLike, inText: boolean, mac = isMac()): KeyBinding | null {
  return KEYMAP.find((b) => matches(b.chord, e, mac) && (!inText || firesInText(b.chord))) ?? null;
}

/** Whether an element takes typed text (an input of text, a textarea, an editable region). */
export function isTextField(el: Element | null): boolean {
  if (!el) return false;
  if (el instanceof HTMLTextAreaElement) return true;
  if (el instanceof HTMLSelectElement) return true;
  if (el instanceof HTMLInputElement) return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file'].includes(el.type);
  return (el as HTMLElement).isContentEditable === true;
}

const KEY_NAMES: Record<string, string> = {
  Enter: 'shell.keys.key.enter',
  Backspace: 'shell.keys.key.backspace',
  ArrowDown: 'shell.keys.key.down',
  ArrowUp: 'shell.keys.key.up',
  End: 'shell.keys.key.end',
};

/** The keys of a chord as the person reads them, one entry per key ("Ctrl", "Shift", "Enter"). */
export function chordKeys(chord: Chord, t: TFunction, mac = isMac()): string[] {
  const keys: string[] = [];
  if (chord.mod) keys.push(t(mac ? 'shell.keys.key.cmd' : 'shell.keys.key.ctrl'));
  if (chord.alt) keys.push(t(mac ? 'shell.keys.key.option' : 'shell.keys.key.alt'));
  if (chord.shift) keys.push(t('shell.keys.key.shift'));
  const named = KEY_NAMES[chord.key];
  keys.push(named ? t(named) : chord.key.toUpperCase());
  return keys;
}

/** What the action does, in words. */
export const actionLabel = (action: KeyAction, t: TFunction) => t(`shell.keys.action.${action}`);

/** The chord of an action as aria-keyshortcuts spells it ("Control+Shift+Enter"). */
export function ariaKeys(action: KeyAction, mac = isMac()): string | undefined {
  const chord = KEYMAP.find((b) => b.action === action)?.chord;
  if (!chord) return undefined;
  const parts: string[] = [];
  if (chord.mod) parts.push(mac ? 'Meta' : 'Control');
  if (chord.alt) parts.push('Alt');
  if (chord.shift) parts.push('Shift');
  parts.push(chord.key === ',' ? 'Comma' : chord.key.length === 1 ? chord.key.toUpperCase() : chord.key);
  return parts.join('+');
}
