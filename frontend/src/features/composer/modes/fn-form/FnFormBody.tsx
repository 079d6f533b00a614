import { useEffect } from 'react';
import type { DirectResult, ToolDef } from '../../../../bridge';
import { ErrorNotice } from '../../../../ui/ErrorNotice';
import { Spinner } from '../../../../ui/Spinner';
import type { ModeBodyProps } from '../../ComposerMode';
import { useTakeFocus } from '../../takeFocus';
import { ExpandableCode } from '../../ExpandableCode';
import { reasonText } from '../approval/ApprovalBody';
import { tOr, toolLabel } from '../../toolLabel';
import { SchemaFields } from './SchemaField';
import { buildInput, type FormValues } from './schemaForm';

export interface FnFormState {
  tools: ToolDef[] | null;
  loadError: unknown;
  selected: string;
  values: FormValues;
  /** Set after a Run with missing or invalid fields, so the marks appear only then. */
  tried: boolean;
  /**
   * The gate asks for this run under the session's permission: nothing ran, and the form shows
   * what would run and why until the person confirms or goes back.
   */
  confirm: { input: Record<string, unknown>; result: DirectResult } | null;
}

export const selectedTool = (s: FnFormState) => s.tools?.find((x) => x.name === s.selected) ?? null;

/** Pick a tool this mode allows (Composer.Tools), fill the form built from its schema, Run. */
export function FnFormBody({ state, setState, ctx, run, busy }: ModeBodyProps<FnFormState>) {
  const { t } = ctx;
  const takeFocus = useTakeFocus();
  const { listTools } = ctx;
  const loaded = state.tools !== null || state.loadError !== null;

  useEffect(() => {
    if (loaded) return;
    let live = true;
    listTools().then(
      (tools) =>
        live &&
        // A form kept from before names a tool this mode may no longer offer: start that one afresh.
        setState((s) =>
          tools.some((x) => x.name === s.selected) ? { ...s, tools } : { ...s, tools, selected: tools[0]?.name ?? '', values: {} },
        ),
      (loadError: unknown) => live && setState((s) => ({ ...s, loadError: loadError ?? new Error('tools') })),
    );
    return () => {
      live = false;
    };
  }, [loaded, listTools, setState]);

  if (state.loadError !== null) {
    return <ErrorNotice error={state.loadError} onRetry={() => setState((s) => ({ ...s, loadError: null }))} testId="fn-form-error" />;
  }
  if (state.tools === null) {
    return (
      <div className="fn-form fn-form--loading">
        <Spinner label={t('composer.fnForm.loading')} />
      </div>
    );
  }
  if (state.tools.length === 0) {
    return (
      <p className="fn-form__empty" data-testid="fn-form-empty">
        {t('composer.fnForm.none')}
      </p>
    );
  }
  if (state.confirm) return <ConfirmRun confirm={state.confirm.result} t={t} />;
  const tool = selectedTool(state);
  const built = tool ? buildInput(tool, state.values) : null;
  const bad = new Set(state.tried && built && !built.ok ? [...built.missing, ...built.invalid] : []);
  return (
    <div className="fn-form" data-testid="fn-form">
      <div className="fn-form__tools" role="radiogroup" aria-label={t('composer.fnForm.pick')}>
        {state.tools.map((x) => (
          <button
            key={x.name}
            type="button"
            role="radio"
            aria-checked={x.name === state.selected}
            className={`tool-chip${x.name === state.selected ? ' is-selected' : ''}`}
            data-testid={`fn-tool-${x.name}`}
            disabled={busy}
            onClick={() => setState((s) => ({ ...s, selected: x.name, values: {}, tried: false }))}
          >
            {toolLabel(t, x.name)}
          </button>
        ))}
      </div>
      {tool && (
        <>
          <p className="fn-form__hint">{tOr(t, `tool.${tool.name}.hint`, tool.description)}</p>
          <SchemaFields
            tool={tool}
            values={state.values}
            bad={bad}
            busy={busy}
            takeFocus={takeFocus}
            onChange={(name, v) => setState((s) => ({ ...s, values: { ...s.values, [name]: v } }))}
            onSubmit={() => run('run')}
            t={t}
          />
        </>
      )}
    </div>
  );
}

/** What the confirmed run will do, in full, and why the gate asks (R-DEC-4's summary). */
function ConfirmRun({ confirm, t }: { confirm: DirectResult; t: ModeBodyProps<FnFormState>['ctx']['t'] }) {
  const why = reasonText(t, confirm.reasonKey, confirm.reasonArgs);
  return (
    <div className="fn-form fn-form--confirm" data-testid="fn-form-confirm">
      <p className="decision__lead">
        {t('composer.fnForm.confirmLead', { Tool: toolLabel(t, confirm.name) })}
        {why && <span className="decision__why"> · {why}</span>}
      </p>
      <ExpandableCode text={confirm.summary ?? ''} testId="fn-form-confirm-summary" />
    </div>
  );
}
