import { useCallback, useState } from 'react';
import { drafts as defaultDrafts, MESSAGE, type DraftStore } from './draftStore';

/**
 * A text box's value that is also its draft: it starts from what was left typed in this session
 * and keeps every change. The value is held with its session, so a box that is handed another
 * session shows that session's draft, never the one typed elsewhere.
 */
export function useDraftText(session: string, scope: string = MESSAGE, store: DraftStore = defaultDrafts): [string, (text: string) => void] {
  const [held, setHeld] = useState(() => ({ session, scope, text: store.text(session, scope) }));
  const current = held.session === session && held.scope === scope ? held : { session, scope, text: store.text(session, scope) };
  if (current !== held) setHeld(current);
  const setText = useCallback(
    (text: string) => {
      store.set(session, scope, text);
      setHeld({ session, scope, text });
    },
    [store, session, scope],
  );
  return [current.text, setText];
}
