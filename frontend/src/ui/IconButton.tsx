import type { ReactNode } from 'react';

export interface IconButtonProps {
  /** The accessible name; an icon has no text of its own. */
  label: string;
  /** The tooltip; the label unless a shorter one reads better. */
  title?: string;
  danger?: boolean;
  testId?: string;
  onClick: () => void;
  children: ReactNode;
}

/** A button that shows only an icon. */
export function IconButton({ label, title = label, danger, testId, onClick, children }: IconButtonProps) {
  return (
    <button
      type="button"
      className={danger ? 'icon-btn icon-btn--danger' : 'icon-btn'}
      data-testid={testId}
      aria-label={label}
      title={title}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
