import { createElement } from 'react';
import type { ComposerMode, ModeAction } from '../../ComposerMode';
import { SendIcon, StopIcon, ToolIcon } from '../../../../ui/icons';
import { IdleBody } from './IdleBody';

/** Typing a message. While a turn runs, an empty box offers Stop; a message steers the turn. */
export const idleMode: ComposerMode<null> = {
  id: 'idle',
  title: () => null,
  init: () => null,
  Body: IdleBody,
  actions: (_state, ctx) => {
    const { t } = ctx;
    const actions: ModeAction[] = [];
    if (ctx.openFnForm) {
      actions.push({
        id: 'tools',
        label: t('composer.action.tools'),
        hint: t('composer.action.toolsHint'),
        tone: 'ghost',
        testId: 'open-fn-form',
        icon: createElement(ToolIcon, { size: 15 }),
      });
    }
    if (ctx.running && ctx.text.trim() === '') {
      actions.push({ id: 'stop', label: t('composer.action.stop'), tone: 'primary', testId: 'composer-stop', icon: createElement(StopIcon, { size: 15 }) });
    } else {
      actions.push({
        id: 'send',
        label: t('composer.action.send'),
        tone: 'primary',
        testId: 'composer-send',
        disabled: ctx.text.trim() === '',
        icon: createElement(SendIcon, { size: 15 }),
      });
    }
    return actions;
  },
  perform: async (id, _state, ctx) => {
    if (id === 'send') await ctx.send(ctx.text.trim());
    else if (id === 'stop') await ctx.cancelTurn();
    else if (id === 'tools') ctx.openFnForm?.();
  },
  escape: 'stop',
};
