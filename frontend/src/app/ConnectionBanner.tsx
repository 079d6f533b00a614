import { useEffect, useState } from 'react';
import type { Api } from '../bridge';
import { useT } from '../i18n/I18nProvider';

/**
 * In a browser, when the connection to `agentdesk serve` drops: a line that says so while the
 * transport reconnects on its own, gone once it is back (whatever was missed is reloaded then).
 */
export function ConnectionBanner({ api }: { api: Api }) {
  const t = useT();
  const [down, setDown] = useState(false);
  useEffect(() => api.onConnection((up) => setDown(!up)), [api]);
  if (!down) return null;
  return (
    <div className="connection-banner" role="status" data-testid="connection-lost">
      <span className="connection-banner__dot" aria-hidden="true" />
      {t('shell.connection.lost')}
    </div>
  );
}
