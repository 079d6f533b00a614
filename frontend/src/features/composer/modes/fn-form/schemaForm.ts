import type { JsonSchemaProperty, ToolDef } from '../../../../bridge';

export type FieldKind = 'text' | 'long' | 'number' | 'integer' | 'boolean' | 'list';

export interface Field {
  name: string;
  kind: FieldKind;
  required: boolean;
  /** The schema's own title, used when the locales have no label for the parameter. */
  title: string;
  description: string;
}

export type FormValues = Record<string, string | boolean>;

/** Parameters that hold file contents, text to replace or a plan get a multi-line box. */
const LONG = new Set(['content', 'old_string', 'new_string', 'plan', 'command']);

const typeOf = (p: JsonSchemaProperty) => (Array.isArray(p.type) ? p.type.find((x) => x !== 'null') : p.type) ?? 'string';

function kindOf(name: string, p: JsonSchemaProperty): FieldKind {
  const type = typeOf(p);
  if (type === 'boolean') return 'boolean';
  if (type === 'integer') return 'integer';
  if (type === 'number') return 'number';
  if (type === 'array') return 'list';
  return LONG.has(name) ? 'long' : 'text';
}

/** The form of a tool: one field per schema property, required ones first, in schema order. */
export function fieldsOf(tool: ToolDef): Field[] {
  const props = tool.inputSchema?.properties ?? {};
  const required = new Set(tool.inputSchema?.required ?? []);
  const fields = Object.entries(props).map(([name, p]) => ({
    name,
    kind: kindOf(name, p),
    required: required.has(name),
    title: p.title ?? name,
    description: p.description ?? '',
  }));
  return [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)];
}

export type BuildResult = { ok: true; input: Record<string, unknown> } | { ok: false; missing: string[]; invalid: string[] };

/** Turns the form's strings into the tool's input: numbers parsed, lists one item a line, empty optionals left out. */
export function buildInput(tool: ToolDef, values: FormValues): BuildResult {
  const input: Record<string, unknown> = {};
  const missing: string[] = [];
  const invalid: string[] = [];
  for (const f of fieldsOf(tool)) {
    const v = values[f.name];
    if (f.kind === 'boolean') {
      if (v === true) input[f.name] = true;
      else if (f.required) input[f.name] = false;
      continue;
    }
    const s = typeof v === 'string' ? v : '';
    if (s.trim() === '') {
      if (f.required) missing.push(f.name);
      continue;
    }
    if (f.kind === 'number' || f.kind === 'integer') {
      const n = Number(s.trim());
      if (!Number.isFinite(n) || (f.kind === 'integer' && !Number.isInteger(n))) invalid.push(f.name);
      else input[f.name] = n;
    } else if (f.kind === 'list') {
      input[f.name] = s
        .split('\n')
        .map((x) => x.trim())
        .filter(Boolean);
    } else {
      input[f.name] = s;
    }
  }
  return missing.length || invalid.length ? { ok: false, missing, invalid } : { ok: true, input };
}
