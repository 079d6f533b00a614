import { useId } from 'react';
import type { QuestionPayload } from '../../../../bridge';
import { fieldsOf } from '../../../../bridge/wire';
import { useCaretAtEnd } from '../../../drafts/caretAtEnd';
import { AutoGrowTextarea } from '../../AutoGrowTextarea';
import type { ModeBodyProps } from '../../ComposerMode';
import { useTakeFocus } from '../../takeFocus';

export interface QuestionState {
  selected: string[];
  text: string;
}

export function questionPayload(p: unknown): Required<Pick<QuestionPayload, 'question' | 'multiple'>> & { options: string[] } {
  const o = fieldsOf<QuestionPayload>(p);
  return { question: o.question ?? '', options: Array.isArray(o.options) ? o.options.map(String) : [], multiple: Boolean(o.multiple) };
}

/** Single choice (radios), multiple choice (checkboxes), and free text — alone or as "something else". */
export function QuestionBody({ state, setState, decision, ctx, run, busy }: ModeBodyProps<QuestionState>) {
  const { t } = ctx;
  const takeFocus = useTakeFocus();
  const q = questionPayload(decision?.payload);
  const name = useId();
  const caret = useCaretAtEnd<HTMLTextAreaElement>();
  const toggle = (opt: string) =>
    setState((s) => ({
      ...s,
      selected: q.multiple ? (s.selected.includes(opt) ? s.selected.filter((x) => x !== opt) : [...s.selected, opt]) : [opt],
    }));
  return (
    <div className="decision decision--question" data-testid="question">
      <p className="decision__question" id={`${name}-q`} data-testid="question-text">
        {q.question}
      </p>
      {q.options.length > 0 && (
        <div className="choices" role={q.multiple ? 'group' : 'radiogroup'} aria-labelledby={`${name}-q`}>
          {q.options.map((opt, i) => {
            const checked = state.selected.includes(opt);
            return (
              <label key={`${i}-${opt}`} className={`choice${checked ? ' is-checked' : ''}`} data-testid="question-option">
                <input
                  type={q.multiple ? 'checkbox' : 'radio'}
                  name={name}
                  checked={checked}
                  disabled={busy}
                  onChange={() => toggle(opt)}
                  autoFocus={takeFocus && i === 0}
                />
                <span>{opt}</span>
              </label>
            );
          })}
        </div>
      )}
      <AutoGrowTextarea
        className="input decision__text"
        {...caret}
        data-testid="question-free-text"
        aria-label={t('composer.question.textLabel')}
        placeholder={q.options.length ? t('composer.question.otherPlaceholder') : t('composer.question.textPlaceholder')}
        value={state.text}
        readOnly={busy}
        maxRows={6}
        autoFocus={takeFocus && q.options.length === 0}
        onChange={(e) => setState((s) => ({ ...s, text: e.target.value }))}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            run('answer');
          }
        }}
      />
      {q.multiple && <p className="decision__hint">{t('composer.question.multipleHint')}</p>}
    </div>
  );
}
