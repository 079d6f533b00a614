import { useRef, type FocusEvent } from 'react';

type Field = HTMLInputElement | HTMLTextAreaElement;

/**
 * Props for a field whose value may be a draft kept from before: focused by the keyboard or by the
 * page (a box that takes the focus when drawn), its caret goes to the end, where typing goes on.
 * A click keeps the caret where it landed.
 */
export function useCaretAtEnd<E extends Field>() {
  const pointer = useRef(false);
  return {
    onPointerDown: () => {
      pointer.current = true;
    },
    onFocus: (e: FocusEvent<E>) => {
      const el = e.currentTarget;
      if (!pointer.current) el.setSelectionRange(el.value.length, el.value.length);
      pointer.current = false;
    },
  };
}
