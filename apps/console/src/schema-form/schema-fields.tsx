import type { FormValues } from './form-values.js';
import type { FieldModel } from './schema-form-model.js';

interface FieldsProps {
  fields: FieldModel[];
  values: FormValues;
  errors: Record<string, string>;
  onChange: (values: FormValues) => void;
}

/** The inputs of a form model (schema-form-model.ts), each labelled, required ones marked, errors under them. */
export function SchemaFields({ fields, values, errors, onChange }: FieldsProps) {
  return (
    <>
      {fields.map((field) => (
        <SchemaField key={field.path} field={field} values={values} errors={errors} onChange={onChange} />
      ))}
    </>
  );
}

function SchemaField({ field, values, errors, onChange }: Omit<FieldsProps, 'fields'> & { field: FieldModel }) {
  const id = `field-${field.path}`;
  const error = errors[field.path];
  const hintId = field.description ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const set = (value: string | boolean) => onChange({ ...values, [field.path]: value });
  const text = typeof values[field.path] === 'string' ? (values[field.path] as string) : '';
  const common = {
    id,
    name: field.path,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
    'aria-required': field.required ? true : undefined,
  } as const;
  const label = (
    <>
      {field.label}
      {field.required && (
        <span class="required" title="required">
          {' '}
          *<span class="visually-hidden"> (required)</span>
        </span>
      )}
    </>
  );
  const after = (
    <>
      {field.description && <small id={hintId}>{field.description}</small>}
      {error && (
        <small id={errorId} class="field-error">
          {error}
        </small>
      )}
    </>
  );

  if (field.kind === 'object') {
    return (
      <fieldset class="nested">
        <legend>{label}</legend>
        {field.description && <small>{field.description}</small>}
        <SchemaFields fields={field.fields} values={values} errors={errors} onChange={onChange} />
      </fieldset>
    );
  }
  if (field.kind === 'boolean' && field.required) {
    return (
      <div class="field">
        <label>
          <input
            {...common}
            type="checkbox"
            checked={values[field.path] === true}
            onChange={(event) => set(event.currentTarget.checked)}
          />
          {label}
        </label>
        {after}
      </div>
    );
  }
  let input: preact.JSX.Element;
  if (field.kind === 'boolean' || field.kind === 'enum') {
    const options =
      field.kind === 'boolean'
        ? [
            { value: 'true', text: 'true' },
            { value: 'false', text: 'false' },
          ]
        : field.options.map((option, index) => ({
            value: String(index),
            text: typeof option === 'string' ? option : JSON.stringify(option),
          }));
    input = (
      <select {...common} value={text} onChange={(event) => set(event.currentTarget.value)}>
        <option value="">{field.required ? 'Choose…' : '(not set)'}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.text}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'array' || (field.kind === 'string' && field.multiline)) {
    input = (
      <textarea
        {...common}
        rows={field.kind === 'array' ? 3 : 5}
        value={text}
        placeholder={field.kind === 'array' ? `One ${field.itemType} a line` : undefined}
        onInput={(event) => set(event.currentTarget.value)}
      />
    );
  } else {
    const numeric = field.kind === 'number' || field.kind === 'integer';
    input = (
      <input
        {...common}
        type="text"
        inputMode={numeric ? (field.kind === 'integer' ? 'numeric' : 'decimal') : undefined}
        value={text}
        onInput={(event) => set(event.currentTarget.value)}
      />
    );
  }
  return (
    <div class="field">
      <label for={id}>
        {label}
        {field.kind !== 'string' && <small class="muted"> ({kindText(field)})</small>}
      </label>
      {input}
      {after}
    </div>
  );
}

function kindText(field: FieldModel): string {
  switch (field.kind) {
    case 'array':
      return `list of ${field.itemType}s, one a line`;
    case 'number':
    case 'integer': {
      const range =
        field.minimum !== undefined || field.maximum !== undefined
          ? ` ${field.minimum ?? '…'} to ${field.maximum ?? '…'}`
          : '';
      return `${field.kind}${range}`;
    }
    default:
      return field.kind;
  }
}
