import type { ToolItem } from '../../bridge';
import type { TFunction } from '../../i18n/translate';
import { splitTitle } from './planTitle';

export interface VerdictView {
  tone: 'ok' | 'asked' | 'danger' | 'muted' | 'pending';
  text: string;
}

/** A choice (allow_*, reject) or, when the person did not answer, the outcome (rejected, timed_out, …). */
const ANSWERS = new Set(['allow_once', 'allow_session', 'allow_always', 'reject', 'rejected', 'timed_out', 'cancelled', 'interrupted']);

/** Endings of a question or a plan review, as the server records them on the call. */
const QUESTION_ENDINGS = new Set(['answered', 'rejected', 'timed_out', 'cancelled', 'interrupted']);
const PLAN_ENDINGS = new Set(['approve', 'keep_planning', 'rejected', 'timed_out', 'cancelled', 'interrupted']);

type VerdictFields = Pick<ToolItem, 'verdict' | 'layer' | 'code' | 'approved' | 'done'> & { name?: string };

/**
 * How a call went, in words (R-GATE, R-DEC-4). A question or a plan review is about the person's
 * answer, which the gate always lets through: its badge says how the person answered (or that no
 * answer came), never "allowed".
 */
export function verdictView(item: VerdictFields, t: TFunction): VerdictView | null {
  if (item.name === 'ask_user' || item.name === 'exit_plan_mode') {
    const own = decisionView(item, t);
    if (own !== undefined) return own;
  }
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

/** A question's or plan review's badge; undefined when the gate's own verdict should speak (a deny). */
function decisionView(item: VerdictFields, t: TFunction): VerdictView | null | undefined {
  if (item.verdict === 'deny' || item.verdict === 'cancelled') return undefined;
  const question = item.name === 'ask_user';
  const endings = question ? QUESTION_ENDINGS : PLAN_ENDINGS;
  if (endings.has(item.approved)) {
    const good = item.approved === 'answered' || item.approved === 'approve' || item.approved === 'keep_planning';
    return { tone: good ? 'asked' : 'danger', text: t(`composer.verdict.${question ? 'question' : 'plan'}.${item.approved}`) };
  }
  if (!item.done) return { tone: 'pending', text: t('composer.verdict.waiting') };
  return null; // recorded before calls kept how the person answered: say nothing rather than "allowed"
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Keys an input is summed up by, in order of preference: ours, then those external agents use. */
const SUMMARY_KEYS = ['command', 'path', 'file_path', 'pattern', 'question', 'url', 'query'];

/** Keys that say where or how a call runs, not what it does: never a call's summary on their own. */
const QUIET_KEYS = new Set(['cwd', 'workdir', 'timeout', 'env', 'description', 'with_escalated_permissions', 'justification', 'sandbox_permissions']);

const SHELLS = new Set(['sh', 'bash', 'zsh', '/bin/sh', '/bin/bash', '/bin/zsh', '/usr/bin/bash', '/usr/bin/zsh', 'pwsh', 'powershell', 'cmd']);

function words(v: unknown): string {
  if (typeof v === 'string') return v.trim();
  if (!Array.isArray(v)) return '';
  const parts = v.map((p) => (typeof p === 'string' ? p : Array.isArray(p) ? words(p) : '')).filter((p) => p !== '');
  const [sh = '', flag = '', line = ''] = parts;
  if (parts.length === 3 && SHELLS.has(sh) && flag.startsWith('-') && flag.includes('c')) return line.trim();
  return parts.join(v.length > 0 && v.every(Array.isArray) ? '; ' : ' ');
}

/**
 * The shell command in an input, however the agent names it: ours and opencode's and
 * claude-code-acp's "command" string, codex-acp's argv (often wrapped in "bash -lc"), "cmd",
 * "commands", "argv"; a terminal's "command" with its "args". Mirrors the runtime's reading.
 */
export function commandOf(o: Record<string, unknown>): string {
  for (const k of ['command', 'cmd', 'commands', 'argv', 'script']) {
    const s = words(o[k]);
    if (!s) continue;
    const args = k === 'command' ? words(o.args) : '';
    return args ? `${s} ${args}` : s;
  }
  return '';
}

/**
 * The one line a tool card's header says about a call, from its input alone, so it reads the same
 * while the call runs and after a reload: a command, a path, a pattern (and where), a question,
 * a plan's title.
 */
export function callSummary(name: string, input: unknown): string {
  const o = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : null;
  if (!o) return input === undefined || input === null ? '' : oneLine(String(input));
  const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : '');
  if (name === 'exit_plan_mode' || typeof o.plan === 'string') {
    const plan = str('plan');
    return oneLine(splitTitle(plan).title || plan.trim().split('\n')[0] || '');
  }
  if (name === 'grep' && str('pattern')) return oneLine(str('path') ? `${str('pattern')} · ${str('path')}` : str('pattern'));
  const cmd = commandOf(o);
  if (cmd) return oneLine(cmd);
  for (const k of SUMMARY_KEYS) if (str(k)) return oneLine(str(k));
  const telling = Object.fromEntries(Object.entries(o).filter(([k]) => !QUIET_KEYS.has(k)));
  if (Object.keys(telling).length === 0) return '';
  try {
    return oneLine(JSON.stringify(telling));
  } catch {
    return '';
  }
}
