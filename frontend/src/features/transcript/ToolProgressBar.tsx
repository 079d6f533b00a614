import type { ToolProgress } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';

/** A server's progress may be a fraction (0.5 of 1): shown with at most two decimals. */
const num = (n: number) => String(Math.round(n * 100) / 100);

/**
 * How far a running MCP tool says it is: a bar that fills when the server knows the total
 * ("3 of 10"), else one that only shows it is busy, with the count so far; and its latest message.
 */
export function ToolProgressBar({ progress: p, tool }: { progress: ToolProgress; tool: string }) {
  const t = useT();
  const known = p.total > 0;
  const text = known ? t('composer.tool.progressOf', { Done: num(p.progress), Total: num(p.total) }) : t('composer.tool.progressCount', { Done: num(p.progress) });
  const share = known ? Math.min(1, p.progress / p.total) : 0;
  return (
    <div className="tool-progress" data-testid="tool-progress" data-determinate={known}>
      <div
        className={`tool-progress__track${known ? '' : ' is-indeterminate'}`}
        role="progressbar"
        aria-label={t('composer.tool.progressLabel', { Tool: tool })}
        aria-valuemin={0}
        // An unknown total has no value to announce (ARIA: an indeterminate bar omits it); the text says the count.
        aria-valuenow={known ? Math.min(p.progress, p.total) : undefined}
        aria-valuemax={known ? p.total : undefined}
        aria-valuetext={text}
      >
        <div className="tool-progress__fill" style={known ? { width: `${share * 100}%` } : undefined} />
      </div>
      <span className="tool-progress__count" data-testid="tool-progress-count">
        {text}
      </span>
      {p.message && (
        <p className="tool-progress__message" data-testid="tool-progress-message">
          {p.message}
        </p>
      )}
    </div>
  );
}
