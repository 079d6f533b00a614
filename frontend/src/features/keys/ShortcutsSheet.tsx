import { useEffect, useRef } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { KeymapList } from './KeymapList';

/**
 * The shortcuts sheet (`?`): a modal dialog, so the focus stays in it; Esc or Close shuts it and
 * the focus goes back where it was.
 */
export function ShortcutsSheet({ onClose }: { onClose: () => void }) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    const before = document.activeElement as HTMLElement | null;
    if (d && typeof d.showModal === 'function' && !d.open) d.showModal();
    d?.querySelector<HTMLElement>('[data-testid="shortcuts-close"]')?.focus();
    return () => {
      if (d?.open && typeof d.close === 'function') d.close();
      if (before && before !== document.body && before.isConnected) before.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="shortcuts-sheet"
      aria-labelledby="shortcuts-title"
      data-testid="shortcuts-sheet"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onClose();
        } else if (e.key === 'Tab') {
          // The focus cycles in the sheet: it never leaves for the page behind or the browser.
          const all = [...e.currentTarget.querySelectorAll<HTMLElement>('button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])')];
          const first = all[0];
          const last = all[all.length - 1];
          if (!first || !last) return;
          if (e.shiftKey && document.activeElement === first) {
            e.preventDefault();
            last.focus();
          } else if (!e.shiftKey && document.activeElement === last) {
            e.preventDefault();
            first.focus();
          }
        }
      }}
    >
      <h2 id="shortcuts-title" className="shortcuts-sheet__title">
        {t('shell.keys.title')}
      </h2>
      <p className="shortcuts-sheet__lead">{t('shell.keys.lead')}</p>
      <KeymapList />
      <div className="shortcuts-sheet__actions">
        <button type="button" className="btn btn--small" data-testid="shortcuts-close" onClick={onClose}>
          {t('shell.keys.close')}
        </button>
      </div>
    </dialog>
  );
}
