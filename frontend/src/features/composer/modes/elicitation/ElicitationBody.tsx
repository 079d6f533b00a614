import type { ElicitationPayload, ToolDef } from '../../../../bridge';
import { fieldsOf as wireFields } from '../../../../bridge/wire';
import type { ModeBodyProps } from '../../ComposerMode';
import { useTakeFocus } from '../../takeFocus';
import { SchemaFields } from '../fn-form/SchemaField';
import { buildInput, type FormValues } from '../fn-form/schemaForm';

export interface ElicitationState {
  values: FormValues;
  /** Set after a Submit with missing or invalid fields, so the marks appear only then. */
  tried: boolean;
}

export function elicitationPayload(p: unknown): ElicitationPayload {
  const o = wireFields<ElicitationPayload>(p);
  const schema = o.schema && typeof o.schema === 'object' ? o.schema : { type: 'object', properties: {} };
  return { server: o.server ?? '', tool: o.tool ?? '', message: o.message ?? '', schema };
}

/** The requested schema as a tool definition, so the fn-form's machinery builds and reads the form. */
export function formOf(p: ElicitationPayload): ToolDef {
  return { name: 'elicitation', description: p.message, inputSchema: p.schema ?? { type: 'object' } };
}

/** An MCP server's question: its message, and a form built from the schema it asked for. */
export function ElicitationBody({ state, setState, decision, ctx, run, busy }: ModeBodyProps<ElicitationState>) {
  const { t } = ctx;
  const takeFocus = useTakeFocus();
  const p = elicitationPayload(decision?.payload);
  const form = formOf(p);
  const built = buildInput(form, state.values);
  const bad = new Set(state.tried && !built.ok ? [...built.missing, ...built.invalid] : []);
  return (
    <div className="decision decision--elicitation" data-testid="elicitation">
      <p className="decision__lead" data-testid="elicitation-origin">
        {t('composer.elicitation.lead', { Server: p.server, Tool: p.tool })}
      </p>
      <p className="decision__question" data-testid="elicitation-message">
        {p.message}
      </p>
      <SchemaFields
        tool={form}
        values={state.values}
        bad={bad}
        busy={busy}
        takeFocus={takeFocus}
        onChange={(name, v) => setState((s) => ({ ...s, values: { ...s.values, [name]: v } }))}
        onSubmit={() => run('submit')}
        t={t}
      />
      <p className="decision__hint">{t('composer.elicitation.hint')}</p>
    </div>
  );
}
