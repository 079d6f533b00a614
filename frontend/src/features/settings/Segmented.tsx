import { useId } from 'react';

export interface SegmentedOption<T extends string> {
  value: T;
  label: string;
}

/** A row of mutually exclusive choices: native radios, so arrows, Tab and screen readers just work. */
export function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
  testId,
}: {
  /** The accessible name of the group. */
  label: string;
  options: readonly SegmentedOption<T>[];
  value: T;
  onChange: (value: T) => void;
  testId: string;
}) {
  const name = useId();
  return (
    <div className="segmented" role="radiogroup" aria-label={label} data-testid={testId}>
      {options.map((o) => (
        <label key={o.value} className={`segmented__option${o.value === value ? ' is-checked' : ''}`}>
          <input
            type="radio"
            className="visually-hidden"
            name={name}
            value={o.value}
            checked={o.value === value}
            data-testid={`${testId}-${o.value}`}
            onChange={() => onChange(o.value)}
          />
          <span>{o.label}</span>
        </label>
      ))}
    </div>
  );
}
