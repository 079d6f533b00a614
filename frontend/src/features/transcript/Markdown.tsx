import { memo, useMemo, useRef } from 'react';
import { drawMarkdown, type MarkdownChunk } from './markdown';

/**
 * Renders the agent's Markdown; the HTML is sanitized by DOMPurify before it reaches the DOM. It
 * is drawn in chunks of whole blocks (drawMarkdown) that are kept while their text stays: an
 * answer that streams in is parsed, sanitized and laid out again only from its new blocks, not
 * from its start, each time it is drawn.
 */
export function Markdown({ source, className, testId }: { source: string; className?: string; testId?: string }) {
  const drawn = useRef<readonly MarkdownChunk[]>([]);
  const chunks = useMemo(() => (drawn.current = drawMarkdown(source, drawn.current)), [source]);
  return (
    <div className={['markdown', className].filter(Boolean).join(' ')} data-testid={testId}>
      {chunks.map((c, i) => (
        <MarkdownChunkView key={i} html={c.html} />
      ))}
    </div>
  );
}

const MarkdownChunkView = memo(function MarkdownChunkView({ html }: { html: string }) {
  return <div className="markdown__block" dangerouslySetInnerHTML={{ __html: html }} />;
});
