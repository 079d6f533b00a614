import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { AppSettings } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';
import { Spinner } from '../../ui/Spinner';
import type { AppSettingsStore } from './appSettingsStore';
import { EXTERNAL_AGENT_SUGGESTIONS } from './presets';
import { SettingsSection } from './SettingsSection';
import { StartTimeoutField } from './StartTimeoutField';
import { useSettingsApi } from './settingsApiContext';
import { useAction } from './useAction';
import { agentTruth, factOf, isWarning, reachOf } from '../composer/agentFacts';
import { AgentReachEditor } from './AgentReachEditor';
import { SettingLabel } from './SettingLabel';

/** A stable test hook for a suggestion: its program name ("gemini", "claude-code-acp", "goose"). */
const suggestionId = (command: string) => command.split(/\s+/)[0] ?? command;

/**
 * The external ACP agents a new session may run on (R-ACP-2): command lines AgentDesk starts over
 * stdio. The whole list is written on every add or remove; the server trims, validates and dedupes.
 */
export function ExternalAgentsSection({ settings, store }: { settings: AppSettings; store: AppSettingsStore }) {
  const t = useT();
  const api = useSettingsApi();
  const id = useId();
  const agents = settings.externalAgents;
  const [text, setText] = useState('');
  // A repeat is caught here: the server would drop it silently and the person would see nothing happen.
  const [duplicate, setDuplicate] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  // After a remove the focus moves to the agent that took its place (or the field), not the page.
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const save = useAction(async (commands: string[]) => store.apply(await api.settings.setExternalAgents(commands)));

  useEffect(() => {
    if (focusIndex === null) return;
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>('[data-testid="external-agent-remove"]') ?? [];
    const next = buttons[Math.min(focusIndex, buttons.length - 1)];
    (next ?? inputRef.current)?.focus();
    setFocusIndex(null);
  }, [focusIndex, agents]);

  const clearErrors = () => {
    setDuplicate(null);
    save.clearError();
  };

  /** Adds one command line; resolves true when it was saved. */
  const add = async (command: string) => {
    const cmd = command.trim();
    if (!cmd || save.pending) return false;
    clearErrors();
    if (agents.includes(cmd)) {
      setDuplicate(cmd);
      return false;
    }
    return save.run([...agents, cmd]);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await add(text)) setText('');
  };

  const addSuggestion = async (command: string) => {
    // The chip disappears once its agent is listed, so the focus goes back to the field.
    if (await add(command)) inputRef.current?.focus();
  };

  const remove = async (command: string, index: number) => {
    clearErrors();
    setRemoving(command);
    if (await save.run(agents.filter((c) => c !== command))) setFocusIndex(index);
    setRemoving(null);
  };

  const suggestions = EXTERNAL_AGENT_SUGGESTIONS.filter((s) => !agents.includes(s));
  const error = duplicate !== null ? t('settings.agents.duplicate', { Command: duplicate }) : save.error !== null ? describeError(save.error, t) : null;
  const errorId = `${id}-error`;

  return (
    <SettingsSection
      id="external-agents"
      title={t('settings.agents.title')}
      description={t('settings.agents.description')}
      testId="external-agents-section"
    >
      {agents.length === 0 ? (
        <div className="agents-empty" data-testid="external-agents-empty">
          <p className="agents-empty__title">{t('settings.agents.emptyTitle')}</p>
          <p className="agents-empty__text">{t('settings.agents.emptyBody')}</p>
        </div>
      ) : (
        <ul ref={listRef} className="agent-list" aria-label={t('settings.agents.title')} data-testid="external-agent-list">
          {agents.map((command, index) => (
            <li key={command} className="agent-item" data-testid="external-agent-item">
              <div className="agent-item__main">
                <code className="agent-item__command" title={command} data-testid="external-agent-command">
                  {command}
                </code>
                <AgentFacts
                  lines={agentTruth(t, factOf(settings.agentFacts, command), {
                    sandboxed: settings.sandbox?.namespaces === true,
                    reach: reachOf(settings.agentReach, command),
                  })}
                />
                {reachOf(settings.agentReach, command) && settings.sandbox?.namespaces === true && (
                  <AgentReachEditor key={JSON.stringify(reachOf(settings.agentReach, command))} reach={reachOf(settings.agentReach, command)!} store={store} />
                )}
              </div>
              <button
                type="button"
                className="btn btn--small btn--quiet-danger agent-item__remove"
                disabled={save.pending}
                aria-label={t('settings.agents.removeNamed', { Command: command })}
                data-testid="external-agent-remove"
                onClick={() => void remove(command, index)}
              >
                {removing === command ? <Spinner label={t('settings.agents.removing')} size={12} /> : t('settings.agents.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}

      <form className="setting-row agent-add" onSubmit={(e) => void submit(e)} data-testid="external-agent-form">
        <SettingLabel
          title={t('settings.agents.addLabel')}
          help={t('settings.agents.addHelp')}
          htmlFor={`${id}-input`}
          helpId={`${id}-help`}
        />
        <div className="setting-row__control field-inline agent-add__control">
          <input
            ref={inputRef}
            id={`${id}-input`}
            className={`input mono agent-add__input${error !== null ? ' is-invalid' : ''}`}
            value={text}
            spellCheck={false}
            autoComplete="off"
            autoCapitalize="off"
            placeholder={t('settings.agents.placeholder')}
            aria-invalid={error !== null}
            aria-describedby={error !== null ? `${errorId} ${id}-help` : `${id}-help`}
            data-testid="external-agent-input"
            onChange={(e) => {
              setText(e.target.value);
              clearErrors();
            }}
          />
          <button type="submit" className="btn btn--small" disabled={save.pending || !text.trim()} data-testid="external-agent-add">
            {t('settings.agents.add')}
          </button>
        </div>
        {suggestions.length > 0 && (
          <div className="agent-add__suggestions">
            <span className="agent-add__suggestions-label" id={`${id}-suggestions`}>
              {t('settings.agents.suggestions')}
            </span>
            <div className="preset-row" role="group" aria-labelledby={`${id}-suggestions`}>
              {suggestions.map((command) => (
                <button
                  key={command}
                  type="button"
                  className="chip mono"
                  disabled={save.pending}
                  aria-label={t('settings.agents.addNamed', { Command: command })}
                  data-testid={`external-agent-suggestion-${suggestionId(command)}`}
                  onClick={() => void addSuggestion(command)}
                >
                  + {command}
                </button>
              ))}
            </div>
          </div>
        )}
        {error !== null && (
          <p className="field-error" id={errorId} role="alert" data-testid="external-agents-error">
            {error}
          </p>
        )}
      </form>
      <StartTimeoutField
        value={settings.externalStartTimeout ?? '2m0s'}
        onSave={async (value) => store.apply(await api.settings.setExternalStartTimeout(value))}
      />
    </SettingsSection>
  );
}

/** What AgentDesk saw of an agent in its last session; a warning when it never asked first. */
function AgentFacts({ lines }: { lines: ReturnType<typeof agentTruth> }) {
  return (
    <ul className="agent-item__facts" data-testid="external-agent-facts" data-asking={lines.asking} data-held={lines.held}>
      {lines.lines.map((line, i) => (
        <li
          key={i}
          className={isWarning(lines, i) ? 'agent-item__fact agent-item__fact--warn' : 'agent-item__fact'}
          role={isWarning(lines, i) ? 'note' : undefined}
        >
          {line}
        </li>
      ))}
    </ul>
  );
}
