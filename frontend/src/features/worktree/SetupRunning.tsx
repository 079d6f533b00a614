import { useEffect, useState } from 'react';
import type { Api } from '../../bridge';
import type { WorktreeSetupView } from '../../bridge/generated';
import { useT } from '../../i18n/I18nProvider';
import './worktree.css';

/**
 * Says that a set-up command runs in the session's new worktree, with its text, until it ends:
 * the first turn waits for it, and the stop button stops it.
 */
export function SetupRunning({ api, sessionId }: { api: Api; sessionId: string }) {
  const t = useT();
  const [running, setRunning] = useState<WorktreeSetupView | null>(null);
  useEffect(() => {
    setRunning(null);
    const mine = (fn: (e: WorktreeSetupView) => void) => (e: WorktreeSetupView) => e.sessionId === sessionId && fn(e);
    const offs = [
      api.sessions.onWorktreeSetupStarted(mine((e) => setRunning(e))),
      api.sessions.onWorktreeSetup(mine(() => setRunning(null))),
    ];
    return () => offs.forEach((off) => off());
  }, [api, sessionId]);
  if (!running) return null;
  return (
    <p className="slot-wait" role="status" data-testid="setup-running">
      {t('worktree.setup.running')} <code className="mono">{running.setup.command}</code>
    </p>
  );
}
