import { useState } from 'react';
import type { DirectItem, ToolItem } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { ChevronDownIcon, ChevronRightIcon, TerminalIcon } from '../../ui/icons';
import { toolLabel } from '../composer/toolLabel';
import { Markdown } from './Markdown';
import { splitTitle } from './markdown';
import { callSummary, verdictView } from './verdict';

const OPEN_BY_DEFAULT = 1200;

/**
 * A tool call: what ran, the gate's verdict (allowed by rule, asked and how it was answered,
 * denied with the localized code), the output as it streams, and the error the agent saw.
 */
export function ToolCard({ item }: { item: ToolItem | DirectItem }) {
  const t = useT();
  const direct = item.type === 'direct';
  const verdict = direct ? null : verdictView(item, t);
  const running = !direct && !item.done;
  const summary = callSummary(item.input, direct ? undefined : item.summary);
  const [open, setOpen] = useState(item.isError || item.output.length <= OPEN_BY_DEFAULT);
  const plan = item.name === 'exit_plan_mode' ? planOf(item.input) : null;
  const deniedText = !direct && item.verdict === 'deny' && !item.output ? verdict?.text : '';
  const errorText = item.isError ? item.output || deniedText : deniedText;
  const hasBody = Boolean(item.output || plan || errorText);

  return (
    <article
      className={`tool-card${item.isError ? ' is-error' : ''}${running ? ' is-running' : ''}`}
      data-testid={direct ? 'direct-card' : 'tool-card'}
      data-tool={item.name}
      data-verdict={direct ? 'direct' : item.verdict}
      data-approved={direct ? undefined : item.approved}
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
        <code className="tool-card__summary mono" title={summary}>
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
      {open && hasBody && (
        <div className="tool-card__body">
          {plan && <Markdown source={plan} className="tool-card__plan" />}
          {errorText ? (
            <div className="tool-card__error" data-testid="tool-error">
              <span className="tool-card__error-label">{t('composer.tool.errorSeen')}</span>
              <pre className="mono">{errorText}</pre>
            </div>
          ) : (
            item.output && (
              <pre className="tool-card__output mono" data-testid="tool-output">
                {item.output}
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
  return title ? `### ${title}\n${body}` : body;
}
