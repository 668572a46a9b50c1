import type { EnumValue, FieldModel } from './schema-form-model.js';

/**
 * What the form's inputs hold, by field path: text for text, number, array (one item a line) and choice inputs (a
 * choice is its option's index, '' when unset), a boolean for a required yes/no checkbox.
 */
export type FormValues = Record<string, string | boolean>;

export interface ArgumentsResult {
  arguments: Record<string, unknown>;
  /** By field path: what is wrong with it. Empty when the arguments can be sent. */
  errors: Record<string, string>;
}

/** The inputs' starting values: the schema's defaults, else empty. */
export function initialFormValues(fields: FieldModel[]): FormValues {
  return formValuesFromArguments(fields, {});
}

/** The inputs holding `args` (switching from the JSON editor back to the form); defaults fill what args lack. */
export function formValuesFromArguments(fields: FieldModel[], args: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const value = field.name in args ? args[field.name] : 'defaultValue' in field ? field.defaultValue : undefined;
    switch (field.kind) {
      case 'string':
        values[field.path] = typeof value === 'string' ? value : '';
        break;
      case 'number':
      case 'integer':
        values[field.path] = typeof value === 'number' ? String(value) : '';
        break;
      case 'boolean':
        if (field.required) values[field.path] = value === true;
        else values[field.path] = typeof value === 'boolean' ? String(value) : '';
        break;
      case 'enum': {
        const index = value === undefined ? -1 : field.options.indexOf(value as EnumValue);
        values[field.path] = index === -1 ? '' : String(index);
        break;
      }
      case 'array':
        values[field.path] = Array.isArray(value) ? value.map(String).join('\n') : '';
        break;
      case 'object': {
        const inner = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
        Object.assign(values, formValuesFromArguments(field.fields, inner));
        break;
      }
    }
  }
  return values;
}

/** The call's arguments from the inputs; empty optional inputs are left out, so the tool's own defaults apply. */
export function argumentsFromForm(fields: FieldModel[], values: FormValues): ArgumentsResult {
  const errors: Record<string, string> = {};
  const args = collect(fields, values, errors);
  return { arguments: args, errors };
}

function collect(fields: FieldModel[], values: FormValues, errors: Record<string, string>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.kind === 'object') {
      const inner = collect(field.fields, values, errors);
      if (field.required || Object.keys(inner).length > 0) args[field.name] = inner;
      continue;
    }
    const raw = values[field.path];
    if (field.kind === 'boolean' && typeof raw === 'boolean') {
      args[field.name] = raw;
      continue;
    }
    const input = typeof raw === 'string' ? raw : '';
    if (field.kind !== 'string' && input.trim() === '') {
      if (field.required) errors[field.path] = 'Required';
      continue;
    }
    if (field.kind === 'string' && input === '') {
      if (field.required) errors[field.path] = 'Required';
      continue;
    }
    const parsed = parseField(field, input);
    if ('error' in parsed) errors[field.path] = parsed.error;
    else args[field.name] = parsed.value;
  }
  return args;
}

function parseField(field: FieldModel, input: string): { value: unknown } | { error: string } {
  switch (field.kind) {
    case 'string':
      return { value: input };
    case 'number':
    case 'integer': {
      const number = parseNumber(input, field.kind);
      if (typeof number === 'string') return { error: number };
      if (field.minimum !== undefined && number < field.minimum) return { error: `At least ${field.minimum}` };
      if (field.maximum !== undefined && number > field.maximum) return { error: `At most ${field.maximum}` };
      return { value: number };
    }
    case 'boolean':
      return { value: input === 'true' };
    case 'enum': {
      const index = Number(input);
      if (!Number.isInteger(index) || index < 0 || index >= field.options.length) return { error: 'Choose one' };
      return { value: field.options[index] };
    }
    case 'array': {
      const items: unknown[] = [];
      for (const line of input.split('\n')) {
        if (line.trim() === '') continue;
        if (field.itemType === 'string') items.push(line);
        else if (field.itemType === 'boolean') {
          if (line.trim() !== 'true' && line.trim() !== 'false') return { error: `"${line.trim()}" is not true/false` };
          items.push(line.trim() === 'true');
        } else {
          const number = parseNumber(line, field.itemType);
          if (typeof number === 'string') return { error: number };
          items.push(number);
        }
      }
      return { value: items };
    }
    case 'object':
      return { error: 'Not an input' };
  }
}

/** The number typed, or what is wrong with it. */
function parseNumber(input: string, kind: 'number' | 'integer'): number | string {
  const number = Number(input.trim());
  if (input.trim() === '' || !Number.isFinite(number)) return `"${input.trim()}" is not a number`;
  if (kind === 'integer' && !Number.isInteger(number)) return `"${input.trim()}" is not a whole number`;
  return number;
}

/** The JSON editor's text as call arguments, or the parse error to show under it. */
export function parseJsonArguments(text: string): { arguments: Record<string, unknown> } | { error: string } {
  if (text.trim() === '') return { arguments: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: (error as Error).message };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: 'The arguments must be a JSON object, e.g. { "name": "value" }' };
  }
  return { arguments: value as Record<string, unknown> };
}
