import type { ToolItem } from '../../bridge';
import type { TFunction } from '../../i18n/translate';
import { splitTitle } from './markdown';

const firstLine = (s: string) => s.trim().split('\n')[0] ?? '';

export interface VerdictView {
  tone: 'ok' | 'asked' | 'danger' | 'muted' | 'pending';
  text: string;
}

/** A choice (allow_*, reject) or, when the person did not answer, the outcome (rejected, timed_out, …). */
const ANSWERS = new Set(['allow_once', 'allow_session', 'allow_always', 'reject', 'rejected', 'timed_out', 'cancelled', 'interrupted']);

/** How the gate decided a call, and for an ask how it was answered — in words (R-GATE, R-DEC-4). */
export function verdictView(item: Pick<ToolItem, 'verdict' | 'layer' | 'code' | 'approved' | 'done'>, t: TFunction): VerdictView | null {
  switch (item.verdict) {
    case 'allow':
      if (item.layer === 'rule') return { tone: 'ok', text: t('composer.verdict.allowedByRule') };
      if (item.layer === 'grant') return { tone: 'ok', text: t('composer.verdict.allowedSession') };
      return { tone: 'ok', text: t('composer.verdict.allowed') };
    case 'ask':
      if (ANSWERS.has(item.approved)) {
        const declined = !item.approved.startsWith('allow');
        return { tone: declined ? 'danger' : 'asked', text: t(`composer.verdict.asked.${item.approved}`) };
      }
      return item.done ? { tone: 'asked', text: t('composer.verdict.asked') } : { tone: 'pending', text: t('composer.verdict.waiting') };
    case 'deny': {
      const key = `error.${item.code}`;
      const reason = item.code ? t(key) : '';
      return { tone: 'danger', text: reason && reason !== key ? t('composer.verdict.deniedWith', { Reason: reason }) : t('composer.verdict.denied') };
    }
    case 'cancelled':
      return { tone: 'muted', text: t('composer.verdict.cancelled') };
    case 'external':
      // An external agent ran it without asking: its own permission flow, not AgentDesk's gate.
      return { tone: 'muted', text: t('composer.verdict.external') };
    default:
      return null;
  }
}

/** One line that says what a call does: its command, path or pattern, else its input as JSON. */
export function callSummary(input: unknown, summary?: string): string {
  const plan = (input as { plan?: unknown } | null)?.plan;
  // A plan is summed up by its title, not by its whole Markdown.
  if (typeof plan === 'string') return splitTitle(plan).title || firstLine(plan);
  if (summary) return summary;
  if (typeof input === 'object' && input !== null) {
    const o = input as Record<string, unknown>;
    for (const k of ['command', 'path', 'pattern', 'question']) if (typeof o[k] === 'string' && o[k]) return o[k] as string;
    try {
      return JSON.stringify(input);
    } catch {
      return '';
    }
  }
  return input === undefined || input === null ? '' : String(input);
}
