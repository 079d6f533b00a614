import { useCaretAtEnd } from '../drafts/caretAtEnd';

/**
 * The one-line reason a decision card sends with its refusal. Enter (outside an IME
 * composition) refuses at once, so only a focused Allow button ever allows.
 */
export function ReasonField({
  testId,
  label,
  placeholder,
  value,
  busy,
  onChange,
  onRefuse,
}: {
  testId: string;
  label: string;
  placeholder: string;
  value: string;
  busy: boolean;
  onChange: (reason: string) => void;
  onRefuse: () => void;
}) {
  const caret = useCaretAtEnd<HTMLInputElement>();
  return (
    <input
      {...caret}
      className="input decision__reason"
      data-testid={testId}
      aria-label={label}
      placeholder={placeholder}
      value={value}
      readOnly={busy}
      maxLength={2000}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey && !e.nativeEvent.isComposing) {
          e.preventDefault();
          onRefuse();
        }
      }}
    />
  );
}
