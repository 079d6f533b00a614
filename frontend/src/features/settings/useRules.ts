import { useCallback, useEffect, useState } from 'react';
import type { Rule } from '../../bridge/settingsApi';
import { useSettingsApi } from './settingsApiContext';

export type RulesState = { status: 'loading' } | { status: 'ready'; rules: Rule[] } | { status: 'error'; error: unknown };

/**
 * The Settings rules. An "Always allow" answer in any window adds one, so the list refreshes when
 * the rule is stored (rule.added, which follows the decision's resolution), when rules change,
 * and when the event stream comes back.
 */
export function useRules(): { state: RulesState; reload: () => void; revoke: (id: string) => Promise<void> } {
  const api = useSettingsApi();
  const [state, setState] = useState<RulesState>({ status: 'loading' });

  const load = useCallback(
    (quiet: boolean) => {
      if (!quiet) setState({ status: 'loading' });
      api.settings.rules().then(
        (rules) => setState({ status: 'ready', rules }),
        (error: unknown) => setState((s) => (quiet && s.status === 'ready' ? s : { status: 'error', error })),
      );
    },
    [api],
  );

  useEffect(() => {
    load(false);
    const offs = [
      api.settings.onRuleAdded(() => load(true)),
      api.settings.onRulesChanged(() => load(true)),
      api.onReconnect(() => load(true)),
    ];
    return () => offs.forEach((off) => off());
  }, [api, load]);

  const revoke = useCallback(
    async (id: string) => {
      const rules = await api.settings.revokeRule(id);
      setState({ status: 'ready', rules });
    },
    [api],
  );

  return { state, reload: useCallback(() => load(false), [load]), revoke };
}
