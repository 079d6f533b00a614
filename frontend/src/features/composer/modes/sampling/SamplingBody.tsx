import type { SamplingMessage, SamplingPayload } from '../../../../bridge';
import { fieldsOf } from '../../../../bridge/wire';
import type { ModeBodyProps } from '../../ComposerMode';
import { ReasonField } from '../../ReasonField';

export interface SamplingState {
  reason: string;
}

function messagesOf(raw: unknown): SamplingMessage[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((m) => {
    const o = fieldsOf<SamplingMessage>(m);
    return { role: o.role === 'assistant' ? 'assistant' : 'user', text: typeof o.text === 'string' ? o.text : '' };
  });
}

/** The request as the server sent it, every field defaulted: what the person reads is what the model would get. */
export function samplingPayload(p: unknown): SamplingPayload {
  const o = fieldsOf<SamplingPayload>(p);
  return {
    server: o.server ?? '',
    tool: o.tool ?? '',
    model: o.model ?? '',
    systemPrompt: typeof o.systemPrompt === 'string' ? o.systemPrompt : '',
    messages: messagesOf(o.messages),
    maxTokens: typeof o.maxTokens === 'number' && o.maxTokens > 0 ? o.maxTokens : 0,
  };
}

/**
 * What the server wants the person's model to read, in full: its system prompt and every message,
 * as plain text (React escapes it; nothing is rendered as Markdown or HTML), in a box that scrolls.
 */
export function SamplingBody({ state, setState, decision, ctx, run, busy }: ModeBodyProps<SamplingState>) {
  const { t } = ctx;
  const p = samplingPayload(decision?.payload);
  return (
    <div className="decision decision--sampling" data-testid="sampling">
      <p className="decision__lead" data-testid="sampling-lead">
        {p.tool ? t('composer.sampling.leadTool', { Server: p.server, Tool: p.tool }) : t('composer.sampling.lead', { Server: p.server })}
      </p>
      <p className="sampling__meta">
        <span data-testid="sampling-model">{t('composer.sampling.model', { Model: p.model || t('composer.sampling.modelUnknown') })}</span>
        {p.maxTokens > 0 && <span data-testid="sampling-max-tokens"> · {t('composer.sampling.maxTokens', { Count: p.maxTokens })}</span>}
      </p>
      {/* Focusable, so the keyboard can scroll a long request. */}
      <div className="sampling__messages" data-testid="sampling-messages" role="region" aria-label={t('composer.sampling.messagesLabel')} tabIndex={0}>
        {p.systemPrompt && <SamplingPart label={t('composer.sampling.systemPrompt')} text={p.systemPrompt} role="system" />}
        {p.messages.map((m, i) => (
          <SamplingPart key={i} label={t(`composer.sampling.role.${m.role}`)} text={m.text} role={m.role} />
        ))}
      </div>
      <p className="decision__hint">{t('composer.sampling.hint')}</p>
      <ReasonField
        testId="sampling-reason"
        label={t('composer.sampling.reasonLabel')}
        placeholder={t('composer.sampling.reasonPlaceholder')}
        value={state.reason}
        busy={busy}
        onChange={(reason) => setState((s) => ({ ...s, reason }))}
        onRefuse={() => run('deny')}
      />
    </div>
  );
}

function SamplingPart({ label, text, role }: { label: string; text: string; role: 'system' | 'user' | 'assistant' }) {
  return (
    <section className={`sampling__part sampling__part--${role}`} data-testid="sampling-part" data-role={role}>
      <h3 className="sampling__role">{label}</h3>
      <p className="sampling__text">{text}</p>
    </section>
  );
}
