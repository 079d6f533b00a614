import { useState } from 'react';
import type { CompactedItem } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { useCheckpointActions } from '../checkpoints/actions';
import { Markdown } from './Markdown';
import './CompactedMarker.css';

/**
 * Where the runtime summarised the earlier conversation to fit the model's context window: the
 * summary on demand, and a fork from before this point, which continues from the original words
 * (they stay shown above, as the log keeps them).
 */
export function CompactedMarker({ item }: { item: CompactedItem }) {
  const t = useT();
  const actions = useCheckpointActions();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const c = item.compacted;
  const seq = item.seq ?? 0;
  const fork = () => {
    setError(null);
    actions?.forkBefore?.(seq).catch(setError);
  };
  return (
    <div className="compacted" data-testid="context-compacted" data-seq={seq}>
      <div className="compacted__head">
        <span className="compacted__title">{t('transcript.compacted.title')}</span>
        <button type="button" className="link-btn" aria-expanded={open} data-testid="compacted-toggle" onClick={() => setOpen(!open)}>
          {t(open ? 'transcript.compacted.hide' : 'transcript.compacted.show')}
        </button>
        {actions?.forkBefore && seq > 0 && (
          <button type="button" className="link-btn" data-testid="compacted-fork" title={t('transcript.compacted.forkHint')} onClick={fork}>
            {t('transcript.compacted.fork')}
          </button>
        )}
      </div>
      <p className="compacted__detail">
        {t('transcript.compacted.detail', { From: c.from, Through: c.through, Before: c.tokensBefore, After: c.tokensAfter })}
      </p>
      {open && (
        <div className="compacted__summary" data-testid="compacted-summary">
          <Markdown source={c.summary} />
        </div>
      )}
      {error !== null && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="compacted-fork-error" />}
    </div>
  );
}
