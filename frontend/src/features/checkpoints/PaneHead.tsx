import type { ReactNode } from 'react';
import { useT } from '../../i18n/I18nProvider';

/** A review pane's header: back to the transcript, the pane's title (`titleId` labels the pane) and a lead. */
export function PaneHead({ titleId, title, lead, onClose }: { titleId: string; title: string; lead?: ReactNode; onClose: () => void }) {
  const t = useT();
  return (
    <header className="review-pane__head">
      <button type="button" className="btn btn--small" data-testid="pane-back" onClick={onClose}>
        {t('checkpoint.back')}
      </button>
      <h2 id={titleId} className="review-pane__title">
        {title}
      </h2>
      {lead && <span className="review-pane__lead">{lead}</span>}
    </header>
  );
}
