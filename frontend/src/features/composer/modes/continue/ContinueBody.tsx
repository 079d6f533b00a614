import { fieldsOf } from '../../../../bridge/wire';
import type { ModeBodyProps } from '../../ComposerMode';

/** How far the turn went and the run of steps a Continue allows: the payload, every field defaulted. */
export function continuePayload(p: unknown): { steps: number; limit: number } {
  const o = fieldsOf<{ steps: number; limit: number }>(p);
  const count = (v: unknown) => (typeof v === 'number' && v > 0 ? Math.floor(v) : 0);
  return { steps: count(o.steps), limit: count(o.limit) };
}

/** A long turn paused at its step limit: nothing is lost whichever the person picks. */
export function ContinueBody({ decision, ctx }: ModeBodyProps<Record<string, never>>) {
  const p = continuePayload(decision?.payload);
  return (
    <div className="decision decision--continue" data-testid="continue">
      <p className="decision__hint" data-testid="continue-hint">
        {ctx.t('composer.continue.hint', { Limit: p.limit })}
      </p>
    </div>
  );
}
