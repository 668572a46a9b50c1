/**
 * A tool's JSON Schema as a form the console can draw (issue 22, "Tools": a form generated from the schema to try a
 * call). The form covers what most tools take: strings, numbers, integers, booleans, enums, arrays of primitives and
 * objects nested one level. Anything else (oneOf/anyOf/allOf, $ref, deeper nesting, arrays of objects) makes the whole
 * form a JSON editor instead, with the reason shown: a half-drawn form would send arguments the user never saw.
 */

export type PrimitiveType = 'string' | 'number' | 'integer' | 'boolean';
export type EnumValue = string | number | boolean | null;

interface FieldBase {
  /** The property name. */
  name: string;
  /** Its path from the arguments' root, joined with "." (unique, used for ids and error keys). */
  path: string;
  label: string;
  description?: string;
  required: boolean;
}

export type FieldModel =
  | (FieldBase & { kind: 'string'; multiline: boolean; defaultValue?: string })
  | (FieldBase & { kind: 'number' | 'integer'; minimum?: number; maximum?: number; defaultValue?: number })
  | (FieldBase & { kind: 'boolean'; defaultValue?: boolean })
  | (FieldBase & { kind: 'enum'; options: EnumValue[]; defaultValue?: EnumValue })
  | (FieldBase & { kind: 'array'; itemType: PrimitiveType })
  | (FieldBase & { kind: 'object'; fields: FieldModel[] });

export type FormModel = { kind: 'form'; fields: FieldModel[] } | { kind: 'json'; reason: string };

type Schema = Record<string, unknown>;

const unsupportedKeywords = ['oneOf', 'anyOf', 'allOf', '$ref', 'not', 'if', 'patternProperties'] as const;

class Unsupported extends Error {}

/** The form for a tool's input schema, or the JSON editor and why. */
export function buildFormModel(inputSchema: unknown): FormModel {
  try {
    const schema = asSchema(inputSchema, 'the input schema');
    rejectUnsupported(schema, 'the input schema');
    const type = singleType(schema, 'the input schema');
    if (type !== undefined && type !== 'object') throw new Unsupported(`the input schema is of type ${type}`);
    return { kind: 'form', fields: objectFields(schema, '', 0) };
  } catch (error) {
    if (error instanceof Unsupported) return { kind: 'json', reason: `The form cannot show ${error.message}.` };
    throw error;
  }
}

function objectFields(schema: Schema, parentPath: string, depth: number): FieldModel[] {
  const properties = schema['properties'];
  if (properties === undefined) return [];
  if (!isSchema(properties)) throw new Unsupported(`the properties of ${parentPath || 'the input schema'}`);
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].map(String) : []);
  return Object.entries(properties).map(([name, property]) =>
    field(name, property, parentPath ? `${parentPath}.${name}` : name, required.has(name), depth),
  );
}

function field(name: string, property: unknown, path: string, required: boolean, depth: number): FieldModel {
  const schema = asSchema(property, `"${path}"`);
  rejectUnsupported(schema, `"${path}"`);
  const base: FieldBase = { name, path, label: text(schema['title']) ?? name, required };
  const description = text(schema['description']);
  if (description !== undefined) base.description = description;
  if (Array.isArray(schema['enum'])) return enumField(base, schema['enum'], schema['default']);
  if ('const' in schema) return enumField(base, [schema['const']], schema['const']);
  const type = singleType(schema, `"${path}"`);
  switch (type) {
    case 'string': {
      const model: FieldModel = { ...base, kind: 'string', multiline: isMultiline(schema) };
      if (typeof schema['default'] === 'string') model.defaultValue = schema['default'];
      return model;
    }
    case 'number':
    case 'integer': {
      const model: FieldModel = { ...base, kind: type };
      if (typeof schema['minimum'] === 'number') model.minimum = schema['minimum'];
      if (typeof schema['maximum'] === 'number') model.maximum = schema['maximum'];
      if (typeof schema['default'] === 'number') model.defaultValue = schema['default'];
      return model;
    }
    case 'boolean': {
      const model: FieldModel = { ...base, kind: 'boolean' };
      if (typeof schema['default'] === 'boolean') model.defaultValue = schema['default'];
      return model;
    }
    case 'array': {
      const items = schema['items'] === undefined ? {} : asSchema(schema['items'], `the items of "${path}"`);
      rejectUnsupported(items, `the items of "${path}"`);
      const itemType = singleType(items, `the items of "${path}"`) ?? 'string';
      if (itemType !== 'string' && itemType !== 'number' && itemType !== 'integer' && itemType !== 'boolean') {
        throw new Unsupported(`"${path}" (an array of ${itemType === 'object' ? 'objects' : itemType})`);
      }
      if (Array.isArray(items['enum'])) throw new Unsupported(`"${path}" (an array of choices)`);
      return { ...base, kind: 'array', itemType };
    }
    case 'object': {
      if (depth >= 1) throw new Unsupported(`"${path}" (objects nested more than one level)`);
      return { ...base, kind: 'object', fields: objectFields(schema, path, depth + 1) };
    }
    case undefined:
      throw new Unsupported(`"${path}" (no type)`);
    default:
      throw new Unsupported(`"${path}" (type ${type})`);
  }
}

function enumField(base: FieldBase, values: unknown[], defaultValue: unknown): FieldModel {
  const options = values.filter(
    (value): value is EnumValue =>
      value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean',
  );
  if (options.length !== values.length || options.length === 0) {
    throw new Unsupported(`"${base.path}" (choices that are not plain values)`);
  }
  const model: FieldModel = { ...base, kind: 'enum', options };
  if (options.includes(defaultValue as EnumValue)) model.defaultValue = defaultValue as EnumValue;
  return model;
}

/** The one type of a schema; `["string", "null"]` counts as string (an optional value). */
function singleType(schema: Schema, where: string): string | undefined {
  const type = schema['type'];
  if (type === undefined) return schema['properties'] !== undefined ? 'object' : undefined;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const types = type.filter((entry) => entry !== 'null');
    if (types.length === 1 && typeof types[0] === 'string') return types[0];
  }
  throw new Unsupported(`${where} (one of several types)`);
}

function rejectUnsupported(schema: Schema, where: string): void {
  for (const keyword of unsupportedKeywords) {
    if (keyword in schema) throw new Unsupported(`${where} (it uses ${keyword})`);
  }
}

function isMultiline(schema: Schema): boolean {
  const maxLength = schema['maxLength'];
  return schema['format'] === 'textarea' || (typeof maxLength === 'number' ? maxLength > 200 : false);
}

function asSchema(value: unknown, where: string): Schema {
  if (value === true || value === undefined) return {};
  if (!isSchema(value)) throw new Unsupported(`${where} (not a schema object)`);
  return value;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
