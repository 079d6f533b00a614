import type { JsonSchemaProperty, ToolDef } from '../../../../bridge';

export type FieldKind = 'text' | 'long' | 'number' | 'integer' | 'boolean' | 'list' | 'choice';

/** One value of a choice field, with the label the schema gives it. */
export interface FieldOption {
  value: string;
  label: string;
}

export interface Field {
  name: string;
  kind: FieldKind;
  required: boolean;
  /** The schema's own title, used when the locales have no label for the parameter. */
  title: string;
  description: string;
  /** The values a choice field offers (a string enum, or oneOf with const and title). */
  options?: FieldOption[];
}

export type FormValues = Record<string, string | boolean>;

/** Parameters that hold file contents, text to replace or a plan get a multi-line box. */
const LONG = new Set(['content', 'old_string', 'new_string', 'plan', 'command']);

const typeOf = (p: JsonSchemaProperty) => (Array.isArray(p.type) ? p.type.find((x) => x !== 'null') : p.type) ?? 'string';

/** The choices of an enum property: enum (with the legacy enumNames), or oneOf of {const, title}. */
function optionsOf(p: JsonSchemaProperty): FieldOption[] | undefined {
  if (Array.isArray(p.enum) && p.enum.length > 0) {
    const names = Array.isArray(p.enumNames) ? p.enumNames : [];
    return p.enum.map((v, i) => ({ value: String(v), label: String(names[i] ?? v) }));
  }
  if (Array.isArray(p.oneOf) && p.oneOf.length > 0 && p.oneOf.every((o) => o && 'const' in o)) {
    return p.oneOf.map((o) => ({ value: String(o.const), label: String(o.title ?? o.const) }));
  }
  return undefined;
}

function kindOf(name: string, p: JsonSchemaProperty): FieldKind {
  if (optionsOf(p)) return 'choice';
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
    ...(optionsOf(p) ? { options: optionsOf(p) } : {}),
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
    } else if (f.kind === 'choice') {
      if (f.options?.some((o) => o.value === s)) input[f.name] = s;
      else invalid.push(f.name);
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
