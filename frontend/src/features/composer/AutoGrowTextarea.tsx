import { forwardRef, useLayoutEffect, useImperativeHandle, useRef, type TextareaHTMLAttributes } from 'react';

/** A textarea that grows with its content up to `maxRows`, then scrolls. */
export const AutoGrowTextarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement> & { maxRows?: number }>(
  function AutoGrowTextarea({ maxRows = 10, value, className, ...rest }, ref) {
    const inner = useRef<HTMLTextAreaElement>(null);
    useImperativeHandle(ref, () => inner.current as HTMLTextAreaElement);
    useLayoutEffect(() => {
      const el = inner.current;
      if (!el) return;
      el.style.height = 'auto';
      const line = parseFloat(getComputedStyle(el).lineHeight) || 20;
      const max = line * maxRows + 4;
      el.style.height = `${Math.min(el.scrollHeight, max)}px`;
      el.style.overflowY = el.scrollHeight > max ? 'auto' : 'hidden';
    }, [value, maxRows]);
    return <textarea ref={inner} rows={1} value={value} className={['textarea-grow', className].filter(Boolean).join(' ')} {...rest} />;
  },
);
