import { savedText, type ComposerMode } from '../../ComposerMode';
import { QuestionBody, questionPayload, type QuestionState } from './QuestionBody';

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
  draft: {
    save: (s) => (s.text || s.selected.length ? { selected: s.selected, text: s.text } : null),
    restore: (init, saved, decision) => {
      // Only choices the question still offers, and one alone where it asks for one.
      const q = questionPayload(decision?.payload);
      const raw = saved && typeof saved === 'object' ? (saved as { selected?: unknown }).selected : undefined;
      const selected = (Array.isArray(raw) ? raw : []).filter((x): x is string => typeof x === 'string' && q.options.includes(x));
      return { ...init, selected: q.multiple ? selected : selected.slice(0, 1), text: savedText(saved, 'text') };
    },
  },
};
