import { useEffect, useState } from 'react';
import type { Api } from '../../bridge';
import type { TurnWaiting } from '../../bridge/generated';
import { useT } from '../../i18n/I18nProvider';
import '../worktree/worktree.css';

/**
 * Says that the session's turn waits for a free slot (as many turns run at once as Settings
 * allow), until it starts working or ends.
 */
export function SlotWait({ api, sessionId }: { api: Api; sessionId: string }) {
  const t = useT();
  const [waiting, setWaiting] = useState<TurnWaiting | null>(null);
  useEffect(() => {
    setWaiting(null);
    const mine = <E extends { sessionId: string }>(fn: (e: E) => void) => (e: E) => e.sessionId === sessionId && fn(e);
    const clear = mine(() => setWaiting(null));
    const offs = [
      api.turns.onWaiting(mine((e: TurnWaiting) => setWaiting(e))),
      api.turns.onDelta(clear),
      api.turns.onToolCall(clear),
      api.turns.onEnded(clear),
    ];
    return () => offs.forEach((off) => off());
  }, [api, sessionId]);
  if (!waiting) return null;
  return (
    <p className="slot-wait" role="status" data-testid="slot-wait">
      {t('composer.turn.slotWait', { Running: waiting.running, Limit: waiting.limit })}
    </p>
  );
}
