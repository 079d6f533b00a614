import type { DecisionKind } from '../../../bridge';
import type { AnyComposerMode } from '../ComposerMode';
import type { Occupant } from '../decisionQueue';
import { approvalMode } from './approval';
import { continueMode } from './continue';
import { elicitationMode } from './elicitation';
import { fnFormMode } from './fn-form';
import { idleMode } from './idle';
import { planReviewMode } from './plan-review';
import { questionMode } from './question';
import { samplingMode } from './sampling';
import { setupMode } from './setup';

/** Every composer mode, by id. Adding a decision kind means adding a folder and a line here. */
export const MODES: readonly AnyComposerMode[] = [idleMode, fnFormMode, setupMode, questionMode, approvalMode, planReviewMode, elicitationMode, samplingMode, continueMode];

const byId = new Map(MODES.map((m) => [m.id, m]));
const byKind = new Map<DecisionKind, AnyComposerMode>(
  MODES.filter((m) => m.decisionKind).map((m) => [m.decisionKind as DecisionKind, m]),
);

export function modeById(id: string): AnyComposerMode {
  return byId.get(id) ?? idleMode;
}

/** The mode for what occupies the composer; a decision of a kind no mode answers falls back to a question. */
export function modeFor(o: Occupant): AnyComposerMode {
  if (o.kind === 'decision') return byKind.get(o.decision.kind) ?? questionMode;
  return modeById(o.kind);
}
