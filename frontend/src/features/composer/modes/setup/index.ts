import type { ComposerMode } from '../../ComposerMode';
import { SetupBody } from './SetupBody';

/** No model is set up: Send shows what is missing and the ways to set one up. */
export const setupMode: ComposerMode<null> = {
  id: 'setup',
  title: (_d, t) => t('composer.setup.title'),
  init: () => null,
  Body: SetupBody,
  actions: (_s, { t }) => [{ id: 'back', label: t('composer.setup.back'), tone: 'secondary', testId: 'setup-back' }],
  perform: async (id, _s, ctx) => {
    if (id === 'back') ctx.closeSetup();
  },
  escape: 'leave',
};
