import type { ReactNode } from 'react';
import { CheckIcon } from '../../ui/icons';

/**
 * One choice of a composer control's menu (mode, runtime, permission): a radio item with its
 * check, its label and an optional hint, as every such menu shows it.
 */
export function MenuRadioItem({
  checked,
  label,
  hint,
  testId,
  className = '',
  labelClassName = '',
  data,
  onPick,
}: {
  checked: boolean;
  label: ReactNode;
  hint?: ReactNode;
  testId: string;
  className?: string;
  labelClassName?: string;
  /** Extra data-* attributes the tests read. */
  data?: Record<`data-${string}`, string>;
  onPick: () => void;
}) {
  return (
    <button
      type="button"
      role="menuitemradio"
      aria-checked={checked}
      className={`menu__item ${className}`.trim()}
      data-testid={testId}
      {...data}
      onClick={onPick}
    >
      <span className="menu__check">{checked && <CheckIcon size={14} />}</span>
      <span className="menu__text">
        <span className={`menu__label ${labelClassName}`.trim()}>{label}</span>
        {hint && <span className="menu__hint">{hint}</span>}
      </span>
    </button>
  );
}
