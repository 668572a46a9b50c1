import { describe, expect, it } from 'vitest';
import { argumentsFromForm, formValuesFromArguments, initialFormValues, parseJsonArguments } from './form-values.js';
import { buildFormModel, type FieldModel } from './schema-form-model.js';

function fieldsOf(schema: unknown): FieldModel[] {
  const model = buildFormModel(schema);
  if (model.kind !== 'form') throw new Error(`expected a form, got the JSON editor: ${model.reason}`);
  return model.fields;
}

const everyKind = {
  type: 'object',
  properties: {
    message: { type: 'string', description: 'What to echo' },
    count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    ratio: { type: 'number' },
    loud: { type: 'boolean' },
    dryRun: { type: 'boolean' },
    mode: { type: 'string', enum: ['fast', 'slow'] },
    level: { enum: [1, 2, null] },
    tags: { type: 'array', items: { type: 'string' } },
    sizes: { type: 'array', items: { type: 'number' } },
    nickname: { type: ['string', 'null'], title: 'Nick name' },
    options: {
      type: 'object',
      required: ['depth'],
      properties: { depth: { type: 'integer' }, label: { type: 'string' } },
    },
  },
  required: ['message', 'loud'],
};

describe('buildFormModel', () => {
  it('draws every supported kind, with required marks, titles, descriptions and defaults', () => {
    const fields = fieldsOf(everyKind);
    expect(fields.map((field) => [field.path, field.kind, field.required])).toEqual([
      ['message', 'string', true],
      ['count', 'integer', false],
      ['ratio', 'number', false],
      ['loud', 'boolean', true],
      ['dryRun', 'boolean', false],
      ['mode', 'enum', false],
      ['level', 'enum', false],
      ['tags', 'array', false],
      ['sizes', 'array', false],
      ['nickname', 'string', false],
      ['options', 'object', false],
    ]);
    expect(fields[0]).toMatchObject({ label: 'message', description: 'What to echo' });
    expect(fields[1]).toMatchObject({ minimum: 1, maximum: 10, defaultValue: 3 });
    expect(fields[9]).toMatchObject({ label: 'Nick name' });
    const options = fields[10];
    expect(options?.kind === 'object' && options.fields.map((field) => [field.path, field.required])).toEqual([
      ['options.depth', true],
      ['options.label', false],
    ]);
  });

  it('takes a schema without properties (a tool without arguments) as an empty form', () => {
    expect(buildFormModel({ type: 'object' })).toEqual({ kind: 'form', fields: [] });
    expect(buildFormModel({ type: 'object', properties: {} })).toEqual({ kind: 'form', fields: [] });
  });

  it.each([
    ['oneOf', { type: 'object', properties: { target: { oneOf: [{ type: 'string' }, { type: 'number' }] } } }, 'oneOf'],
    ['anyOf', { type: 'object', properties: { target: { anyOf: [{ type: 'string' }] } } }, 'anyOf'],
    ['$ref', { type: 'object', properties: { target: { $ref: '#/$defs/target' } } }, '$ref'],
    ['top-level allOf', { allOf: [{ type: 'object' }] }, 'allOf'],
    [
      'deep nesting',
      { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'object', properties: {} } } } } },
      'nested more than one level',
    ],
    [
      'array of objects',
      { type: 'object', properties: { rows: { type: 'array', items: { type: 'object' } } } },
      'objects',
    ],
    ['several types', { type: 'object', properties: { id: { type: ['string', 'number'] } } }, 'several types'],
    ['no type', { type: 'object', properties: { anything: {} } }, 'no type'],
    ['a non-object root', { type: 'string' }, 'type string'],
    ['not a schema', 'nonsense', 'not a schema'],
  ])('falls back to the JSON editor for %s and says why', (_name, schema, reason) => {
    const model = buildFormModel(schema);
    expect(model.kind).toBe('json');
    expect(model.kind === 'json' && model.reason).toContain(reason);
  });
});

describe('form values', () => {
  it('start at the defaults and turn into typed arguments, empty optional inputs left out', () => {
    const fields = fieldsOf(everyKind);
    const values = initialFormValues(fields);
    expect(values['count']).toBe('3');
    expect(values['loud']).toBe(false);
    Object.assign(values, {
      message: 'hi <b>',
      ratio: '0.5',
      dryRun: 'true',
      mode: '1',
      level: '2',
      tags: 'a\n\nb c',
      sizes: '1\n2.5',
      'options.depth': '2',
    });
    expect(argumentsFromForm(fields, values)).toEqual({
      arguments: {
        message: 'hi <b>',
        count: 3,
        ratio: 0.5,
        loud: false,
        dryRun: true,
        mode: 'slow',
        level: null,
        tags: ['a', 'b c'],
        sizes: [1, 2.5],
        options: { depth: 2 },
      },
      errors: {},
    });
  });

  it('name every input that is wrong', () => {
    const fields = fieldsOf(everyKind);
    const values = { ...initialFormValues(fields), count: '2.5', ratio: 'many', sizes: '1\nx', 'options.label': 'x' };
    expect(argumentsFromForm(fields, values).errors).toEqual({
      message: 'Required',
      count: '"2.5" is not a whole number',
      ratio: '"many" is not a number',
      sizes: '"x" is not a number',
      'options.depth': 'Required',
    });
    expect(argumentsFromForm(fields, { ...values, count: '11', ratio: '', sizes: '' }).errors['count']).toBe(
      'At most 10',
    );
  });

  it('round-trip through the JSON editor', () => {
    const fields = fieldsOf(everyKind);
    const args = { message: 'x', loud: true, mode: 'fast', tags: ['a', 'b'], options: { depth: 1, label: 'l' } };
    const values = formValuesFromArguments(fields, args);
    expect(argumentsFromForm(fields, values).arguments).toEqual({ ...args, count: 3 });
  });
});

describe('parseJsonArguments', () => {
  it('accepts an object, an empty editor, and explains anything else', () => {
    expect(parseJsonArguments('{"a": 1}')).toEqual({ arguments: { a: 1 } });
    expect(parseJsonArguments('  ')).toEqual({ arguments: {} });
    expect(parseJsonArguments('[1]')).toEqual({ error: expect.stringContaining('JSON object') });
    expect(parseJsonArguments('{"a": ')).toHaveProperty('error');
  });
});
