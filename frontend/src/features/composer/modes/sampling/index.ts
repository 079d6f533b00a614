import { savedText, type ComposerMode } from '../../ComposerMode';
import { SamplingBody, samplingPayload, type SamplingState } from './SamplingBody';

const CHOICES = ['allow_once', 'allow_server', 'deny'] as const;

/**
 * An MCP server asks to use the person's model (MCP sampling): the person reads exactly what the
 * model would be asked and allows it once, allows this server for the rest of the session, or
 * denies with an optional reason, which the server receives as the refusal.
 */
export const samplingMode: ComposerMode<SamplingState> = {
  id: 'sampling',
  decisionKind: 'sampling',
  title: (d, t) => t('composer.sampling.title', { Server: samplingPayload(d?.payload).server }),
  init: () => ({ reason: '' }),
  Body: SamplingBody,
  actions: (state, { t }) => [
    {
      id: 'deny',
      label: state.reason.trim() ? t('composer.sampling.denyWithReason') : t('composer.sampling.deny'),
      tone: 'danger',
      testId: 'sampling-deny',
    },
    { id: 'allow_server', label: t('composer.sampling.allowServer'), tone: 'secondary', testId: 'sampling-allow-server' },
    { id: 'allow_once', label: t('composer.sampling.allowOnce'), tone: 'primary', testId: 'sampling-allow-once' },
  ],
  perform: async (id, state, ctx, decision) => {
    if (!decision || !CHOICES.includes(id as (typeof CHOICES)[number])) return;
    const reason = state.reason.trim();
    await ctx.resolve({ id: decision.id, choice: id, ...(id === 'deny' && reason ? { reason } : {}) });
  },
  escape: 'stop',
  draft: {
    save: (s) => (s.reason ? { reason: s.reason } : null),
    restore: (init, saved) => ({ ...init, reason: savedText(saved, 'reason') }),
  },
};
