import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/**
 * The box that morphs in place: its height follows the content with a transition, and a new
 * mode's content fades in. No overlay, no portal — the bands around it never move. The global
 * reduced-motion rule shortens both to nothing.
 */
export function MorphBox({ modeKey, className, children }: { modeKey: string; className: string; children: ReactNode }) {
  const outer = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  // The first mode's content is there when the box is; only a change of mode fades in.
  const [firstMode] = useState(modeKey);
  const [changed, setChanged] = useState(false);
  if (modeKey !== firstMode && !changed) setChanged(true);

  useLayoutEffect(() => {
    const o = outer.current;
    const i = inner.current;
    if (!o || !i || typeof ResizeObserver === 'undefined') return;
    const fit = () => {
      o.style.height = `${i.offsetHeight}px`;
    };
    fit();
    const ro = new ResizeObserver(fit);
    ro.observe(i);
    return () => ro.disconnect();
  }, []);

  return (
    <div ref={outer} className={`morph ${className}`}>
      <div ref={inner} className="morph__inner">
        <div key={modeKey} className={changed ? 'morph__content morph__content--in' : 'morph__content'}>
          {children}
        </div>
      </div>
    </div>
  );
}
