import type { TFunction } from '../../../../i18n/translate';
import { AutoGrowTextarea } from '../../AutoGrowTextarea';
import { tOr } from '../../toolLabel';
import type { ToolDef } from '../../../../bridge';
import { fieldsOf, type Field, type FormValues } from './schemaForm';

/** One parameter: labelled from the locales (tool.<name>.param.<prop>) when they know it. */
export function SchemaField({
  tool,
  field,
  value,
  invalid,
  disabled,
  autoFocus,
  onChange,
  onSubmit,
  t,
}: {
  tool: string;
  field: Field;
  value: string | boolean | undefined;
  invalid: boolean;
  disabled: boolean;
  autoFocus: boolean;
  onChange: (v: string | boolean) => void;
  onSubmit: () => void;
  t: TFunction;
}) {
  const id = `fn-${tool}-${field.name}`;
  const label = tOr(t, `tool.${tool}.param.${field.name}`, field.title);
  const help = field.kind === 'list' ? t('composer.fnForm.listHint') : field.description;
  if (field.kind === 'choice') {
    return (
      <div className="fn-field" data-testid={`fn-field-${field.name}`}>
        <FieldLabel id={id} label={label} required={field.required} t={t} />
        <select
          id={id}
          className={`input${invalid ? ' is-invalid' : ''}`}
          value={typeof value === 'string' ? value : ''}
          disabled={disabled}
          autoFocus={autoFocus}
          aria-invalid={invalid || undefined}
          onChange={(e) => onChange(e.target.value)}
        >
          <option value="">{t('composer.fnForm.choose')}</option>
          {field.options?.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        {field.description && <p className="fn-field__help">{field.description}</p>}
      </div>
    );
  }
  if (field.kind === 'boolean') {
    return (
      <label className="fn-field fn-field--check" data-testid={`fn-field-${field.name}`}>
        <input type="checkbox" checked={value === true} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
        <span>{label}</span>
      </label>
    );
  }
  const common = {
    id,
    className: `input${invalid ? ' is-invalid' : ''}`,
    value: typeof value === 'string' ? value : '',
    disabled,
    autoFocus,
    'aria-invalid': invalid || undefined,
    'aria-describedby': help ? `${id}-help` : undefined,
  };
  return (
    <div className="fn-field" data-testid={`fn-field-${field.name}`}>
      <FieldLabel id={id} label={label} required={field.required} t={t} />
      {field.kind === 'long' || field.kind === 'list' ? (
        <AutoGrowTextarea {...common} maxRows={8} className={`${common.className} mono`} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input
          {...common}
          type="text"
          inputMode={field.kind === 'number' || field.kind === 'integer' ? 'decimal' : undefined}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
              e.preventDefault();
              onSubmit();
            }
          }}
        />
      )}
      {help && (
        <p id={`${id}-help`} className="fn-field__help">
          {help}
        </p>
      )}
    </div>
  );
}

/** A field's name, marked required or optional. */
function FieldLabel({ id, label, required, t }: { id: string; label: string; required: boolean; t: TFunction }) {
  return (
    <label htmlFor={id} className="fn-field__label">
      {label}
      {required ? <span className="fn-field__req"> *</span> : <span className="fn-field__opt"> {t('composer.fnForm.optional')}</span>}
    </label>
  );
}

/**
 * Every parameter of a schema as fields, the first taking the focus when the box does: the form
 * of a tool run by hand, and the form an MCP server asks the person to fill in.
 */
export function SchemaFields({
  tool,
  values,
  bad,
  busy,
  takeFocus,
  onChange,
  onSubmit,
  t,
}: {
  tool: ToolDef;
  values: FormValues;
  bad: Set<string>;
  busy: boolean;
  takeFocus: boolean;
  onChange: (name: string, v: string | boolean) => void;
  onSubmit: () => void;
  t: TFunction;
}) {
  return (
    <div className="fn-form__fields">
      {fieldsOf(tool).map((f, i) => (
        <SchemaField
          key={`${tool.name}-${f.name}`}
          tool={tool.name}
          field={f}
          value={values[f.name]}
          invalid={bad.has(f.name)}
          disabled={busy}
          autoFocus={takeFocus && i === 0}
          onChange={(v) => onChange(f.name, v)}
          onSubmit={onSubmit}
          t={t}
        />
      ))}
    </div>
  );
}
