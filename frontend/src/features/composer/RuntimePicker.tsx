import { useId } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { ChevronDownIcon, TerminalIcon } from '../../ui/icons';
import { MenuRadioItem } from './MenuRadioItem';
import { useMenu } from './useMenu';

/**
 * What runs the new task (R-ACP-2): the built-in agent, or one of the external ACP agents saved in
 * Settings. It sits next to the mode and the permission; '' is the built-in agent.
 */
export function RuntimePicker({ value, agents, onChange }: { value: string; agents: readonly string[]; onChange: (agent: string) => void }) {
  const t = useT();
  const menu = useMenu();
  const id = useId();
  const label = value ? agentName(value) : t('composer.runtime.builtin');
  const pick = (agent: string) => {
    menu.close();
    onChange(agent);
  };
  const item = (agent: string, text: string, hint?: string) => (
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
        aria-label={t('composer.runtime.aria', { Agent: label })}
        title={value ? `${t('composer.runtime.title')}: ${value}` : t('composer.runtime.title')}
      >
        <TerminalIcon size={13} />
        <span className="control__value control__value--clip">{label}</span>
        <ChevronDownIcon size={14} />
      </button>
      {menu.open && (
        <div id={id} ref={menu.menuRef} role="menu" className="menu" aria-label={t('composer.runtime.menu')} onKeyDown={menu.onMenuKeyDown}>
          {item('', t('composer.runtime.builtin'), t('composer.runtime.builtinHint'))}
          {agents.length > 0 && <div className="menu__sep" role="separator" />}
          {agents.map((a) => item(a, agentName(a), a))}
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
