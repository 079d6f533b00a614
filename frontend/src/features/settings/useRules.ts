import { useCallback } from 'react';
import type { Rule } from '../../bridge/settingsApi';
import { useSettingsApi } from './settingsApiContext';
import { useLiveLoad, type LiveState } from './useLiveLoad';

export type RulesState = LiveState<Rule[]>;

/**
 * The Settings rules. An "Always allow" answer in any window adds one, so the list refreshes when
 * the rule is stored (rule.added, which follows the decision's resolution), when rules change,
 * and when the event stream comes back.
 */
export function useRules(): { state: RulesState; reload: () => void; revoke: (id: string) => Promise<void> } {
  const api = useSettingsApi();
  const { state, reload, set } = useLiveLoad(
    useCallback(() => api.settings.rules(), [api]),
    useCallback(
      (load: () => void) => [api.settings.onRuleAdded(load), api.settings.onRulesChanged(load), api.onReconnect(load)],
      [api],
    ),
  );

  const revoke = useCallback(async (id: string) => set(await api.settings.revokeRule(id)), [api, set]);

  return { state, reload, revoke };
}
