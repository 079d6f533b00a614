import { useId, type ReactNode } from 'react';
import type { AgentFactView, AgentReachView } from '../../bridge/generated';
import { useT } from '../../i18n/I18nProvider';
import { ChevronDownIcon, TerminalIcon } from '../../ui/icons';
import { MenuRadioItem } from './MenuRadioItem';
import { useMenu } from './useMenu';
import { agentTruth, factOf, isWarning, reachOf } from './agentFacts';

/**
 * What runs the new task (R-ACP-2): the built-in agent, or one of the external ACP agents saved in
 * Settings. It sits next to the mode and the permission; '' is the built-in agent. Each external
 * agent says what AgentDesk saw of it (facts): whether it asked before its calls, its modes and
 * what Smart · Plan maps to, how the sandbox holds it and what it reaches, and plainly when it
 * cannot be held (no sandbox here: it runs only in Full access).
 */
export function RuntimePicker({
  value,
  agents,
  facts,
  reach,
  sandboxed = true,
  onChange,
}: {
  value: string;
  agents: readonly string[];
  facts?: readonly AgentFactView[] | null;
  reach?: readonly AgentReachView[] | null;
  /** The kernel can hold external agents here; without it they run only in Full access. */
  sandboxed?: boolean;
  onChange: (agent: string) => void;
}) {
  const t = useT();
  const truth = (agent: string) => agentTruth(t, factOf(facts, agent), { sandboxed, reach: reachOf(reach, agent) });
  const hintOf = (agent: string) => {
    const tr = truth(agent);
    const { asking, lines } = tr;
    return (
      <>
        <span className="mono">{agent}</span>
        {lines.map((line, i) => (
          <span
            key={i}
            className={`menu__fact${isWarning(tr, i) ? ' menu__fact--warn' : ''}`}
            data-testid={i === 0 ? 'runtime-asking' : i === 1 ? 'runtime-held' : 'runtime-fact'}
            data-asking={i === 0 ? asking : undefined}
            data-held={i === 1 ? tr.held : undefined}
            role={isWarning(tr, i) ? 'note' : undefined}
            style={{ display: 'block' }}
          >
            {line}
          </span>
        ))}
      </>
    );
  };
  const selected = value ? truth(value) : null;
  const menu = useMenu();
  const id = useId();
  const label = value ? agentName(value) : t('composer.runtime.builtin');
  const pick = (agent: string) => {
    menu.close();
    onChange(agent);
  };
  const item = (agent: string, text: string, hint?: ReactNode) => (
    <MenuRadioItem
      key={agent || 'builtin'}
      checked={value === agent}
      label={text}
      hint={hint}
      labelClassName={agent ? 'mono' : ''}
      testId={agent ? 'runtime-option' : 'runtime-option-builtin'}
      data={{ 'data-agent': agent }}
      onPick={() => pick(agent)}
    />
  );
  return (
    <div className="control" ref={menu.rootRef}>
      <button
        {...menu.buttonProps(id)}
        className="control__button"
        data-testid="runtime-picker"
        data-agent={value}
        data-asking={selected?.asking}
        aria-label={t('composer.runtime.aria', { Agent: label })}
        title={value ? [`${t('composer.runtime.title')}: ${value}`, ...(selected?.lines ?? [])].join('\n') : t('composer.runtime.title')}
      >
        <TerminalIcon size={13} />
        <span className="control__value control__value--clip">{label}</span>
        {(selected?.asking === 'never' || selected?.held === 'fullOnly') && (
          <span className="badge badge--danger" data-testid="runtime-never-asks" aria-hidden="true">
            !
          </span>
        )}
        <ChevronDownIcon size={14} />
      </button>
      {menu.open && (
        <div id={id} ref={menu.menuRef} role="menu" className="menu" aria-label={t('composer.runtime.menu')} onKeyDown={menu.onMenuKeyDown}>
          {item('', t('composer.runtime.builtin'), t('composer.runtime.builtinHint'))}
          {agents.length > 0 && <div className="menu__sep" role="separator" />}
          {agents.map((a) => item(a, agentName(a), hintOf(a)))}
          {agents.length === 0 && <p className="menu__note">{t('composer.runtime.none')}</p>}
        </div>
      )}
    </div>
  );
}

/**
 * An agent's command line as a short name: each path cut to its last part, so
 * "node /home/ada/agents/acp.mjs" reads "node acp.mjs". The full line is in the title.
 */
export function agentName(command: string): string {
  return command
    .trim()
    .split(/\s+/)
    .map((part) => (part.includes('/') ? (part.split('/').filter(Boolean).pop() ?? part) : part))
    .join(' ');
}
