import type { ComposerMode } from '../../ComposerMode';
import { buildInput, fieldsOf, type FormValues } from '../fn-form/schemaForm';
import { ElicitationBody, elicitationPayload, formOf, type ElicitationState } from './ElicitationBody';

/**
 * An MCP server asks the person to fill in a form while one of its tools runs: the form is built
 * from the requested schema with the fn-form's machinery. Submit sends it (the server checks it
 * against its schema, and so does the backend); Decline tells the server no.
 */
export const elicitationMode: ComposerMode<ElicitationState> = {
  id: 'elicitation',
  decisionKind: 'elicitation',
  title: (d, t) => t('composer.elicitation.title', { Server: elicitationPayload(d?.payload).server }),
  init: () => ({ values: {}, tried: false }),
  Body: ElicitationBody,
  actions: (_state, { t }) => [
    { id: 'decline', label: t('composer.elicitation.decline'), tone: 'ghost', testId: 'elicitation-decline' },
    { id: 'submit', label: t('composer.elicitation.submit'), tone: 'primary', testId: 'elicitation-submit' },
  ],
  perform: async (id, state, ctx, decision, setState) => {
    if (!decision) return;
    if (id === 'decline') {
      await ctx.resolve({ id: decision.id, action: 'decline' });
      return;
    }
    if (id !== 'submit') return;
    const built = buildInput(formOf(elicitationPayload(decision.payload)), state.values);
    if (!built.ok) {
      setState((s) => ({ ...s, tried: true }));
      return;
    }
    await ctx.resolve({ id: decision.id, action: 'accept', content: built.input });
  },
  escape: 'stop',
  draft: {
    save: (s) => (Object.keys(s.values).length ? { values: s.values } : null),
    restore: (init, saved, decision) => {
      // Only the fields the form has, with values of the kinds a field holds.
      const names = new Set(fieldsOf(formOf(elicitationPayload(decision?.payload))).map((f) => f.name));
      const raw = saved && typeof saved === 'object' ? (saved as { values?: unknown }).values : undefined;
      const values: FormValues = {};
      if (raw && typeof raw === 'object') {
        for (const [k, v] of Object.entries(raw)) if (names.has(k) && (typeof v === 'string' || typeof v === 'boolean')) values[k] = v;
      }
      return { ...init, values };
    },
  },
};
