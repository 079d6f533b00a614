import { useId, useState, type ReactNode } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { headTail } from './modes/approval/headTail';

/**
 * The full command or parameters, cut head-and-tail when long, with a toggle to see everything.
 * `render` draws a piece of the text (a diff colours its lines); plain text by default.
 */
export function ExpandableCode({ text, testId, render = (s) => s }: { text: string; testId: string; render?: (s: string) => ReactNode }) {
  const t = useT();
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  const cut = headTail(text);
  return (
    <div className="code-block" data-testid={testId}>
      <pre id={id} className="code-block__pre mono" data-expanded={expanded || !cut.truncated}>
        {expanded || !cut.truncated ? (
          render(text)
        ) : (
          <>
            {render(cut.head)}
            <span className="code-block__gap" data-testid={`${testId}-gap`}>
              {cut.hiddenLines > 0
                ? t('composer.code.hiddenLines', { Count: cut.hiddenLines })
                : t('composer.code.hiddenChars', { Count: cut.hiddenChars })}
            </span>
            {render(cut.tail)}
          </>
        )}
      </pre>
      {cut.truncated && (
        <button
          type="button"
          className="link-btn"
          aria-controls={id}
          aria-expanded={expanded}
          data-testid={`${testId}-toggle`}
          onClick={() => setExpanded((v) => !v)}
        >
          {expanded ? t('composer.code.showLess') : t('composer.code.showAll')}
        </button>
      )}
    </div>
  );
}
