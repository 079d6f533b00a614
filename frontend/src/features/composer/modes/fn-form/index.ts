import { savedText, type ComposerMode } from '../../ComposerMode';
import { FnFormBody, selectedTool, type FnFormState } from './FnFormBody';
import { buildInput, type FormValues } from './schemaForm';

/** The person runs a tool directly (R-DEC-1); the result lands in the transcript. Esc leaves. */
export const fnFormMode: ComposerMode<FnFormState> = {
  id: 'fn-form',
  title: (_d, t) => t('composer.fnForm.title'),
  init: () => ({ tools: null, loadError: null, selected: '', values: {}, tried: false, confirm: null }),
  Body: FnFormBody,
  actions: (state, { t }) =>
    state.confirm
      ? [
          { id: 'back', label: t('composer.fnForm.back'), tone: 'ghost', testId: 'fn-form-back' },
          { id: 'confirm', label: t('composer.fnForm.confirm'), tone: 'primary', testId: 'fn-form-confirm-run' },
        ]
      : [
          { id: 'cancel', label: t('composer.action.cancel'), tone: 'ghost', testId: 'fn-form-cancel' },
          { id: 'run', label: t('composer.fnForm.run'), tone: 'primary', testId: 'fn-form-run', disabled: !selectedTool(state) },
        ],
  perform: async (id, state, ctx, _decision, setState) => {
    if (id === 'cancel') {
      ctx.closeFnForm();
      return;
    }
    if (id === 'back') {
      setState((s) => ({ ...s, confirm: null }));
      return;
    }
    if (id === 'confirm' && state.confirm) {
      // The person saw what runs and why the gate asks; a deny still holds on the server.
      await ctx.runTool(state.confirm.result.name, state.confirm.input, true);
      return;
    }
    const tool = selectedTool(state);
    if (id !== 'run' || !tool) return;
    const built = buildInput(tool, state.values);
    if (!built.ok) {
      // Mark what is missing or invalid; nothing reaches the server.
      setState((s) => ({ ...s, tried: true }));
      return;
    }
    const result = await ctx.runTool(tool.name, built.input);
    if (result?.needsApproval) setState((s) => ({ ...s, confirm: { input: built.input, result } }));
  },
  escape: 'leave',
  draft: {
    save: (s) => (s.selected && Object.keys(s.values).length ? { selected: s.selected, values: s.values } : null),
    restore: (init, saved) => {
      const raw = saved && typeof saved === 'object' ? (saved as { values?: unknown }).values : undefined;
      const values: FormValues = {};
      if (raw && typeof raw === 'object') {
        for (const [k, v] of Object.entries(raw)) if (typeof v === 'string' || typeof v === 'boolean') values[k] = v;
      }
      return { ...init, selected: savedText(saved, 'selected'), values };
    },
  },
};

