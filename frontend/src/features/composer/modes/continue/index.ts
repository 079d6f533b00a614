import type { ComposerMode } from '../../ComposerMode';
import { ContinueBody, continuePayload } from './ContinueBody';

const CHOICES = ['continue', 'stop'] as const;

/**
 * A turn reached its step limit and waits: Continue allows another run of model requests, Stop
 * ends the turn with everything it did kept. Escape stops the turn as in every decision.
 */
export const continueMode: ComposerMode<Record<string, never>> = {
  id: 'continue',
  decisionKind: 'continue',
  title: (d, t) => t('composer.continue.title', { Count: continuePayload(d?.payload).steps }),
  init: () => ({}),
  Body: ContinueBody,
  actions: (_state, { t }) => [
    { id: 'stop', label: t('composer.continue.stop'), tone: 'secondary', testId: 'continue-stop' },
    { id: 'continue', label: t('composer.continue.continue'), tone: 'primary', testId: 'continue-continue' },
  ],
  perform: async (id, _state, ctx, decision) => {
    if (!decision || !CHOICES.includes(id as (typeof CHOICES)[number])) return;
    await ctx.resolve({ id: decision.id, choice: id });
  },
  escape: 'stop',
};
