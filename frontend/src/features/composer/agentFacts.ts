import type { AgentFactView, AgentReachView } from '../../bridge/generated';

type T = (key: string, args?: Record<string, unknown>) => string;

/** What the picker and Settings say of an external agent, each line with its tone. */
export interface AgentTruth {
  /** Whether it asked before its calls last time: 'asked', 'never' (a warning), or 'unknown'. */
  asking: 'asked' | 'never' | 'unknown';
  /** Whether the kernel holds its process: 'sandboxed', or 'fullOnly' (a warning) where it cannot. */
  held: 'sandboxed' | 'fullOnly';
  /** One line each: how it asks, how it is held, what it reaches, its modes, how Smart · Plan maps. */
  lines: string[];
}

/** How AgentDesk holds external agents on this machine, and what one agent may reach. */
export interface AgentHold {
  /** The kernel gives agents their own namespaces (Settings' sandbox support). */
  sandboxed: boolean;
  reach?: AgentReachView;
}

export function reachOf(reach: readonly AgentReachView[] | null | undefined, command: string): AgentReachView | undefined {
  return reach?.find((r) => r.command === command);
}

export function factOf(facts: readonly AgentFactView[] | null | undefined, command: string): AgentFactView | undefined {
  return facts?.find((f) => f.command === command);
}

/**
 * The truth about an agent from what AgentDesk saw of it: an agent that ran calls and never asked
 * cannot be held to Ask, and saying so plainly matters more than anything else about it.
 */
export function agentTruth(t: T, fact: AgentFactView | undefined, hold: AgentHold = { sandboxed: true }): AgentTruth {
  const held = hold.sandboxed ? 'sandboxed' : 'fullOnly';
  const holding = [t(hold.sandboxed ? 'extshow.agent.sandboxed' : 'extshow.agent.fullOnly')];
  if (hold.sandboxed && hold.reach) {
    holding.push(
      (hold.reach.hosts ?? []).length > 0
        ? t('extshow.agent.reaches', { Hosts: (hold.reach.hosts ?? []).join(', ') })
        : t('extshow.agent.reachesNothing'),
    );
  }
  if (!fact) return { asking: 'unknown', held, lines: [t('extshow.agent.unknown'), ...holding] };
  const asking = fact.asked ? 'asked' : 'never';
  const lines = [t(fact.asked ? 'extshow.agent.asked' : 'extshow.agent.neverAsked'), ...holding];
  const modes = (fact.modes ?? []).map((m) => m.name || m.id);
  if (modes.length > 0) {
    lines.push(t('extshow.agent.modes', { Modes: modes.join(', ') }));
    const plan = (fact.modes ?? []).find((m) => m.id === fact.planMode);
    lines.push(plan ? t('extshow.agent.planMaps', { Mode: plan.name || plan.id }) : t('extshow.agent.noPlan'));
  }
  return { asking, held, lines };
}

/** Whether line i of a truth is a warning: an agent that never asked, or one no sandbox holds. */
export function isWarning(truth: AgentTruth, i: number): boolean {
  return (i === 0 && truth.asking === 'never') || (i === 1 && truth.held === 'fullOnly');
}
