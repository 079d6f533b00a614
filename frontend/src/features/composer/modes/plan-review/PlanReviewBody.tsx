import type { PlanReviewPayload } from '../../../../bridge';
import { fieldsOf } from '../../../../bridge/wire';
import { markdownPart } from '../../../transcript/markdownPart';
import { splitTitle } from '../../../transcript/planTitle';
import { Part } from '../../../../ui/Part';
import { useCaretAtEnd } from '../../../drafts/caretAtEnd';
import { AutoGrowTextarea } from '../../AutoGrowTextarea';
import type { ModeBodyProps } from '../../ComposerMode';

export interface PlanReviewState {
  feedback: string;
}

export function planPayload(p: unknown): { title: string; body: string } {
  const o = fieldsOf<PlanReviewPayload>(p);
  const split = splitTitle(o.plan ?? '');
  return { title: o.title?.trim() || split.title, body: split.body };
}

/** The plan as Markdown, scrolling inside the composer, and a feedback field for Keep planning. */
export function PlanReviewBody({ state, setState, decision, ctx, run, busy }: ModeBodyProps<PlanReviewState>) {
  const { t } = ctx;
  const plan = planPayload(decision?.payload);
  const caret = useCaretAtEnd<HTMLTextAreaElement>();
  return (
    <div className="decision decision--plan" data-testid="plan-review">
      <div className="plan-card" tabIndex={0} aria-label={t('composer.plan.region')}>
        <Part part={markdownPart} fallback={<div className="markdown markdown--plain" data-testid="plan-markdown">{plan.body}</div>}>
          {({ Markdown }) => <Markdown source={plan.body} testId="plan-markdown" />}
        </Part>
      </div>
      <AutoGrowTextarea
        className="input decision__text"
        {...caret}
        data-testid="plan-feedback"
        aria-label={t('composer.plan.feedbackLabel')}
        placeholder={t('composer.plan.feedbackPlaceholder')}
        value={state.feedback}
        readOnly={busy}
        maxRows={6}
        onChange={(e) => setState({ feedback: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing && state.feedback.trim()) {
            e.preventDefault();
            run('keep_planning');
          }
        }}
      />
    </div>
  );
}
