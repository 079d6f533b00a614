import { useEffect, useRef } from 'react';
import { composerCommand } from './composerCommands';
import { bindingFor, isTextField, type KeyAction } from './keymap';

export type KeyHandlers = Partial<Record<KeyAction, () => boolean | void>>;

/**
 * The window's key handler for the keyboard map. It listens in the capture phase, so a shortcut
 * is not also taken by the field it is typed in (Ctrl+Enter in a reason field approves, it does
 * not refuse); a shortcut that does nothing here (Ctrl+Enter with no decision waiting) goes on to
 * the field. Nothing fires while a modal dialog is open, and a plain key never fires in a text field.
 */
export function useGlobalKeys(handlers: KeyHandlers) {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing || e.repeat) return;
      if (document.querySelector('dialog[open], [aria-modal="true"]')) return;
      const b = bindingFor(e, isTextField(document.activeElement));
      if (!b) return;
      const h = ref.current[b.action] ?? defaults[b.action];
      if (!h) return;
      if (h() === false) return;
      e.preventDefault();
      e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
}

/** What the composer on screen does: answered false when it has nothing to do with the key. */
const defaults: KeyHandlers = {
  approve: () => composerCommand('approve'),
  allowSession: () => composerCommand('allowSession'),
  reject: () => composerCommand('reject'),
  focusComposer: () => composerCommand('focus'),
  jumpLatest: () => {
    const jump = document.querySelector<HTMLElement>('[data-testid="jump-latest"]');
    if (jump) jump.click();
    return true;
  },
};
