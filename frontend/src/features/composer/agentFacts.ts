import type { AgentFactView } from '../../bridge/generated';

type T = (key: string, args?: Record<string, unknown>) => string;

/** What the picker and Settings say of an external agent, each line with its tone. */
export interface AgentTruth {
  /** Whether it asked before its calls last time: 'asked', 'never' (a warning), or 'unknown'. */
  asking: 'asked' | 'never' | 'unknown';
  /** One line each: how it asks, its modes, how Smart · Plan maps to them. */
  lines: string[];
}

export function factOf(facts: readonly AgentFactView[] | null | undefined, command: string): AgentFactView | undefined {
  return facts?.find((f) => f.command === command);
}

/**
 * The truth about an agent from what AgentDesk saw of it: an agent that ran calls and never asked
 * cannot be held to Ask, and saying so plainly matters more than anything else about it.
 */
export function agentTruth(t: T, fact: AgentFactView | undefined): AgentTruth {
  if (!fact) return { asking: 'unknown', lines: [t('extshow.agent.unknown')] };
  const asking = fact.asked ? 'asked' : 'never';
  const lines = [t(fact.asked ? 'extshow.agent.asked' : 'extshow.agent.neverAsked')];
  const modes = (fact.modes ?? []).map((m) => m.name || m.id);
  if (modes.length > 0) {
    lines.push(t('extshow.agent.modes', { Modes: modes.join(', ') }));
    const plan = (fact.modes ?? []).find((m) => m.id === fact.planMode);
    lines.push(plan ? t('extshow.agent.planMaps', { Mode: plan.name || plan.id }) : t('extshow.agent.noPlan'));
  }
  return { asking, lines };
}
