import type { AgentStatusEvent } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { Spinner } from '../../ui/Spinner';

/**
 * One line about the session's external agent while it starts ("Starting opencode…") or when it
 * could not; nothing once it is ready. The agent starts when its session opens, so this is what
 * the person sees instead of a silent first prompt.
 */
export function AgentStatusLine({ status }: { status: AgentStatusEvent | null }) {
  const t = useT();
  if (!status || status.state === 'ready') return null;
  if (status.state === 'starting') {
    const text = t('agent.status.starting', { Name: status.name });
    return (
      <p className="agent-status" data-testid="agent-status" data-state="starting">
        <Spinner label={text} size={12} />
        <span aria-hidden="true">{text}</span>
      </p>
    );
  }
  return (
    <p className="agent-status agent-status--failed" role="alert" data-testid="agent-status" data-state="failed">
      {t('agent.status.failed', { Name: status.name, Error: status.error ?? '' })}
    </p>
  );
}
