import { useState } from 'react';
import type { DirectItem, ToolItem } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { ChevronDownIcon, ChevronRightIcon, TerminalIcon } from '../../ui/icons';
import { toolLabel } from '../composer/toolLabel';
import { Markdown } from './Markdown';
import { splitTitle } from './planTitle';
import { resultText } from './message';
import { ToolProgressBar } from './ToolProgressBar';
import { callSummary, verdictView } from './verdict';

const OPEN_BY_DEFAULT = 1200;

/** The result of a change applied only in part, after review before apply (agent/staged.go). */
const PARTIAL = 'tool.result.partial';

/**
 * A tool call: what ran, the gate's verdict (allowed by rule, asked and how it was answered,
 * denied with the localized code), the output as it streams, and what went wrong in the person's
 * language. The person's own answers (a plan's feedback) show as answers, not as errors.
 */
export function ToolCard({ item }: { item: ToolItem | DirectItem }) {
  const t = useT();
  const direct = item.type === 'direct';
  const verdict = direct ? null : verdictView(item, t);
  const running = !direct && !item.done;
  const summary = callSummary(item.name, item.input);
  const [open, setOpen] = useState(item.isError || item.output.length <= OPEN_BY_DEFAULT);
  const plan = item.name === 'exit_plan_mode' ? planOf(item.input) : null;
  const answered = !direct && Boolean(item.answered);
  const text = item.output ? resultText(t, item.output, item.display, item.isError) : '';
  const deniedText = !direct && item.verdict === 'deny' && !item.output ? (verdict?.text ?? '') : '';
  // A change the person applied only in part worked: the model reads it as an error (so it reads
  // the file again before changing it), the person sees what was applied.
  const partial = !direct && item.display?.key === PARTIAL;
  const errorText = answered || partial ? '' : item.isError ? text || deniedText : deniedText;
  // An external agent's edit shows the diff it sent (its summary is then a unified diff).
  const diff = !direct && item.verdict === 'external' && item.summary?.startsWith('--- ') ? item.summary : '';
  const hasBody = Boolean(text || plan || errorText || diff);

  return (
    <article
      className={`tool-card${errorText ? ' is-error' : ''}${running ? ' is-running' : ''}`}
      data-testid={direct ? 'direct-card' : 'tool-card'}
      data-tool={item.name}
      data-verdict={direct ? 'direct' : item.verdict}
      data-approved={direct ? undefined : item.approved}
      data-partial={partial || undefined}
    >
      <header className="tool-card__head">
        <button
          type="button"
          className="tool-card__toggle"
          aria-expanded={open}
          disabled={!hasBody}
          onClick={() => setOpen((v) => !v)}
          aria-label={t(open ? 'composer.tool.collapse' : 'composer.tool.expand', { Tool: toolLabel(t, item.name) })}
        >
          {hasBody ? open ? <ChevronDownIcon size={14} /> : <ChevronRightIcon size={14} /> : <TerminalIcon size={14} />}
        </button>
        <span className="tool-card__name">{toolLabel(t, item.name)}</span>
        <code className="tool-card__summary mono" title={summary} data-testid="tool-summary">
          {summary}
        </code>
        {direct && <span className="badge badge--muted">{t('composer.tool.direct')}</span>}
        {verdict && (
          <span className={`badge badge--${verdict.tone}`} data-testid="tool-verdict">
            {verdict.text}
          </span>
        )}
        {running && <span className="tool-card__spinner" aria-label={t('composer.tool.running')} role="status" />}
      </header>
      {running && item.progress && <ToolProgressBar progress={item.progress} tool={toolLabel(t, item.name)} />}
      {open && hasBody && (
        <div className="tool-card__body">
          {plan && <Markdown source={plan} className="tool-card__plan" />}
          {diff && (
            <pre className="tool-card__output tool-card__diff mono" data-testid="tool-diff">
              {diff}
            </pre>
          )}
          {answered ? (
            <div className="tool-card__answer" data-testid="tool-answer">
              <span className="tool-card__answer-label">{t('composer.tool.answer')}</span>
              <p>{text}</p>
            </div>
          ) : errorText ? (
            <div className="tool-card__error" data-testid="tool-error">
              <span className="tool-card__error-label">{t('composer.tool.errorSeen')}</span>
              <pre className="mono">{errorText}</pre>
            </div>
          ) : (
            text && (
              <pre className="tool-card__output mono" data-testid="tool-output">
                {text}
              </pre>
            )
          )}
        </div>
      )}
    </article>
  );
}

function planOf(input: unknown): string | null {
  const plan = (input as { plan?: unknown } | null)?.plan;
  if (typeof plan !== 'string' || !plan) return null;
  const { title, body } = splitTitle(plan);
  // One level under the session's title (h1), so the page's outline skips no level.
  return title ? `## ${title}\n${body}` : body;
}
