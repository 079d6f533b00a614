import type { TFunction } from '../../i18n/translate';

/**
 * Text for the person as a locale key and its arguments (Go's display.Message): the model read the
 * same thing in English. An argument may itself be a message. head and tail say how many lines at
 * the start or end of the output the message stands for; the rest is data shown as it is.
 */
export interface Message {
  key: string;
  args?: Record<string, unknown> | null;
  head?: number;
  tail?: number;
}

export function isMessage(v: unknown): v is Message {
  return typeof v === 'object' && v !== null && typeof (v as Message).key === 'string' && (v as Message).key !== '';
}

const PLACEHOLDER = /\{\{\s*\.\w+\s*\}\}/;

/** The message in the UI's language, or null when no locale knows it or an argument it needs is missing. */
export function renderMessage(t: TFunction, m: Message): string | null {
  const args: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(m.args ?? {})) {
    if (isMessage(value)) {
      const inner = renderMessage(t, value);
      if (inner === null) return null;
      args[name] = inner;
    } else if (typeof value === 'string' || typeof value === 'number') {
      args[name] = value;
    } else if (typeof value === 'boolean') {
      args[name] = String(value);
    }
  }
  const text = t(m.key, args);
  return text === m.key || PLACEHOLDER.test(text) ? null : text;
}

/** "CODE: English text", as errors read before they carried a message (older logs, turn errors). */
const CODED = /^([A-Z][A-Z0-9_]{2,}): ([\s\S]*)$/;

/** An old coded error as the code's message in the UI's language; its English text when the message needs arguments. */
export function codedText(t: TFunction, text: string): string {
  const m = CODED.exec(text);
  if (!m) return text;
  return renderMessage(t, { key: `error.${m[1]}` }) ?? m[2] ?? text;
}

/** What the person reads for a result: the tool's own words in their language, data as it is. */
export function resultText(t: TFunction, output: string, display: Message | null | undefined, isError = false): string {
  if (!isMessage(display)) return isError ? codedText(t, output) : output;
  const said = renderMessage(t, display);
  if (said === null) return isError ? codedText(t, output) : output;
  const head = display.head ?? 0;
  const tail = display.tail ?? 0;
  if (head === 0 && tail === 0) return said;
  const lines = output.split('\n');
  const data = lines.slice(head, Math.max(head, lines.length - tail)).join('\n');
  if (data === '') return said;
  return head > 0 ? `${said}\n${data}` : `${data}\n${said}`;
}
