import { Ajv } from 'ajv';
import { ValidationError, type JsonSchemaObject } from '@search-mcp/shared';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ArgumentValidator, loadArgumentValidation } from './argument-validator.js';

beforeAll(async () => {
  await loadArgumentValidation();
});

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object' as const,
  properties: {
    path: { type: 'string' },
    mode: { enum: ['read', 'write'] },
    lines: { type: 'array', items: { type: 'integer', minimum: 1 } },
    when: { type: 'string', format: 'date-time' },
  },
  required: ['path', 'mode'],
  additionalProperties: false,
};

function issuesOf(validator: ArgumentValidator, args: unknown, toolSchema: JsonSchemaObject = schema): string[] {
  try {
    validator.validate('fs:read', toolSchema, args);
  } catch (error) {
    expect(ValidationError.isInstance(error)).toBe(true);
    return (error as ValidationError).issues.map((issue) => `${issue.path}: ${issue.message}`);
  }
  return [];
}

describe('ArgumentValidator', () => {
  it('reports every problem at once with argument paths', () => {
    const validator = new ArgumentValidator();
    expect(issuesOf(validator, { mode: 'delete', lines: [1, 0, 'x'], when: 'yesterday', extra: true }).sort()).toEqual(
      [
        'arguments.path: is required',
        'arguments.extra: is not allowed',
        'arguments.mode: must be one of: "read", "write"',
        'arguments.lines[1]: must be >= 1',
        'arguments.lines[2]: must be integer',
        'arguments.when: must match format "date-time"',
      ].sort(),
    );
  });

  it('accepts valid arguments and names the tool in the message', () => {
    const validator = new ArgumentValidator();
    expect(issuesOf(validator, { path: '/a', mode: 'read', lines: [1, 2] })).toEqual([]);
    expect(() => validator.validate('fs:read', schema, { path: 1, mode: 'read' })).toThrow(
      'Invalid arguments for fs:read: arguments.path: must be string',
    );
  });

  it('rejects arguments that are not an object', () => {
    expect(issuesOf(new ArgumentValidator(), [1, 2])).toEqual(['arguments: must be an object']);
    expect(issuesOf(new ArgumentValidator(), null)).toEqual(['arguments: must be an object']);
  });

  it('understands draft 2020-12 schemas', () => {
    const modern = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object' as const,
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
    };
    expect(issuesOf(new ArgumentValidator(), { pair: ['a', 'b'] }, modern)).toEqual([
      'arguments.pair[1]: must be number',
    ]);
  });

  it('leaves a schema that does not compile to the backend, with one warning', () => {
    const warnings: string[] = [];
    const logger = {
      debug: () => {},
      info: () => {},
      error: () => {},
      warn: (message: string) => warnings.push(message),
      child: () => logger,
    };
    const validator = new ArgumentValidator({ logger });
    const broken = { type: 'object' as const, properties: { a: { type: 'no-such-type' } } };
    expect(issuesOf(validator, { a: 1 }, broken)).toEqual([]);
    expect(issuesOf(validator, { a: 2 }, broken)).toEqual([]);
    expect(warnings).toEqual(['inputSchema does not compile; arguments are not checked here']);
  });

  it('does not keep every compiled schema inside Ajv, and validators work after that', () => {
    // Watched through Ajv's public API on the class both its dialects extend: every schema given to `compile` must
    // be given back to `removeSchema`, Ajv's documented way to drop a schema from its cache.
    const ajvBase = Object.getPrototypeOf(Ajv.prototype) as Ajv;
    const compile = vi.spyOn(ajvBase, 'compile');
    const removeSchema = vi.spyOn(ajvBase, 'removeSchema');
    try {
      const validator = new ArgumentValidator();
      // Fresh schema objects, as each reconnect or tools/list_changed brings.
      const schemas = Array.from({ length: 200 }, (_, index) => ({
        ...schema,
        properties: { ...schema.properties, [`field${index}`]: { type: 'integer' } },
      }));
      for (const [index, fresh] of schemas.entries()) {
        expect(issuesOf(validator, { path: '/a', mode: 'read', [`field${index}`]: 'x' }, fresh)).toEqual([
          `arguments.field${index}: must be integer`,
        ]);
      }
      const compiled = compile.mock.calls.map(([body]) => body);
      const removed = new Set(removeSchema.mock.calls.map(([body]) => body));
      expect(compiled).toHaveLength(200);
      expect(compiled.filter((body) => !removed.has(body))).toEqual([]);
      // The cached validators still work once Ajv has let go of their schemas.
      expect(issuesOf(validator, { path: '/a', mode: 'write', field7: 1.5 }, schemas[7])).toEqual([
        'arguments.field7: must be integer',
      ]);
      expect(issuesOf(validator, { path: '/a', mode: 'write', field7: 3 }, schemas[7])).toEqual([]);
      expect(compile).toHaveBeenCalledTimes(200);
    } finally {
      compile.mockRestore();
      removeSchema.mockRestore();
    }
  });

  it('reads a schema without $schema as 2020-12: prefixItems accepted and refused', () => {
    const pair = {
      type: 'object' as const,
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } },
      required: ['pair'],
    };
    const validator = new ArgumentValidator();
    expect(issuesOf(validator, { pair: ['a', 1] }, pair)).toEqual([]);
    expect(issuesOf(validator, { pair: ['a', 'b'] }, pair)).toEqual(['arguments.pair[1]: must be number']);
    expect(issuesOf(validator, { pair: ['a', 1, true] }, pair)).toHaveLength(1);
  });

  it('enforces unevaluatedProperties across allOf, naming the extra key', () => {
    const strict = {
      type: 'object' as const,
      allOf: [{ properties: { a: { type: 'string' } } }, { properties: { b: { type: 'number' } } }],
      unevaluatedProperties: false,
    };
    const validator = new ArgumentValidator();
    expect(issuesOf(validator, { a: 'x', b: 1 }, strict)).toEqual([]);
    expect(issuesOf(validator, { a: 'x', b: 1, c: true }, strict)).toEqual(['arguments.c: is not allowed']);
  });

  it('checks a draft-07 tuple (items as an array) with and without $schema', () => {
    const tuple = {
      type: 'object' as const,
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } },
    };
    const validator = new ArgumentValidator();
    expect(issuesOf(validator, { pair: ['a', 'b'] }, tuple)).toEqual(['arguments.pair[1]: must be number']);
    const declared = { ...tuple, $schema: 'http://json-schema.org/draft-07/schema#' };
    expect(issuesOf(validator, { pair: ['a', 'b'] }, declared)).toEqual(['arguments.pair[1]: must be number']);
    expect(issuesOf(validator, { pair: ['a', 2] }, declared)).toEqual([]);
  });

  it('honours 2019-09 and enforces minContains', () => {
    const tags = {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      type: 'object' as const,
      properties: { tags: { type: 'array', contains: { const: 'x' }, minContains: 2 } },
    };
    const validator = new ArgumentValidator();
    expect(issuesOf(validator, { tags: ['x', 'x'] }, tags)).toEqual([]);
    expect(issuesOf(validator, { tags: ['x', 'y'] }, tags)).toContain(
      'arguments.tags: must contain at least 2 valid item(s)',
    );
  });
});
