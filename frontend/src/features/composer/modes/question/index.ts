import type { ComposerMode } from '../../ComposerMode';
import { QuestionBody, type QuestionState } from './QuestionBody';

const answerable = (s: QuestionState) => s.selected.length > 0 || s.text.trim() !== '';

/** The agent asks (ask_user): pick one, pick several, or type an answer. */
export const questionMode: ComposerMode<QuestionState> = {
  id: 'question',
  decisionKind: 'question',
  title: (_d, t) => t('decision.kind.question'),
  init: () => ({ selected: [], text: '' }),
  Body: QuestionBody,
  actions: (state, { t }) => [
    { id: 'answer', label: t('composer.question.answer'), tone: 'primary', testId: 'question-answer', disabled: !answerable(state) },
  ],
  perform: async (id, state, ctx, decision) => {
    if (id !== 'answer' || !decision || !answerable(state)) return;
    const text = state.text.trim();
    await ctx.resolve({ id: decision.id, selected: state.selected, ...(text ? { text } : {}) });
  },
  escape: 'stop',
};
