import { useMemo } from 'react';
import { renderMarkdown } from './markdown';

/** Renders the agent's Markdown; the HTML is sanitized by DOMPurify before it reaches the DOM. */
export function Markdown({ source, className, testId }: { source: string; className?: string; testId?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return <div className={['markdown', className].filter(Boolean).join(' ')} data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
}
