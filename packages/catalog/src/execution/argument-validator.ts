import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import {
  errorMessage,
  silentLogger,
  ValidationError,
  type Issue,
  type JsonSchemaObject,
  type Logger,
} from '@search-mcp/shared';

// ajv-formats is CommonJS; under ESM its default export may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

/**
 * Validates tool arguments against the tool's `inputSchema` before a call leaves Search MCP, reporting every
 * problem at once (`allErrors`) as paths a model can act on (`arguments.path: must be string`).
 *
 * The dialect follows `$schema`: none means JSON Schema 2020-12 (MCP's default since 2025-11-25), retried as
 * draft-07 when that does not compile (older servers write tuples as `items: [...]`); `2020-12` and `2019-09` are
 * themselves; `draft-07`/`draft-06` are draft-07; anything else (draft-04) is tried as draft-07. Compiled
 * validators are cached per schema object, weakly: a schema no server lists any more takes its validator along. A
 * schema that does not compile (backends send odd schemas) is not enforced: the backend still validates, and one
 * warning is logged.
 */
export class ArgumentValidator {
  private readonly draft07: Ajv;
  private readonly draft2019: Ajv;
  private readonly draft2020: Ajv;
  private readonly cache = new WeakMap<object, ValidateFunction | null>();
  private readonly logger: Logger;

  constructor(options: { logger?: Logger } = {}) {
    this.logger = options.logger ?? silentLogger;
    const settings = { allErrors: true, strict: false, validateSchema: false, allowUnionTypes: true } as const;
    this.draft07 = addFormats(new Ajv(settings));
    this.draft2019 = addFormats(new Ajv2019(settings) as unknown as Ajv);
    this.draft2020 = addFormats(new Ajv2020(settings) as unknown as Ajv);
  }

  /** @throws ValidationError listing every problem. */
  validate(toolKey: string, schema: JsonSchemaObject, args: unknown): void {
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new ValidationError({
        issues: [{ path: 'arguments', message: 'must be an object' }],
        message: `Invalid arguments for ${toolKey}: arguments must be an object`,
      });
    }
    const validate = this.compile(toolKey, schema);
    if (!validate || validate(args)) return;
    const issues = (validate.errors ?? []).map(toIssue);
    throw new ValidationError({
      issues,
      message: `Invalid arguments for ${toolKey}: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
    });
  }

  private compile(toolKey: string, schema: JsonSchemaObject): ValidateFunction | null {
    const cached = this.cache.get(schema);
    if (cached !== undefined) return cached;
    // $schema and $id would make ajv register the schema globally; a copy without them compiles in isolation.
    const { $schema: dialect, $id: _id, ...body } = schema;
    const candidates = this.dialectsFor(toolKey, dialect);
    let compiled: ValidateFunction | null = null;
    let failure: unknown;
    for (const ajv of candidates) {
      try {
        compiled = ajv.compile(body);
        // Ajv keeps every compiled schema in a strong Map keyed by the (always fresh) copy, so reconnects and
        // list_changed would grow it without end. The compiled function works on without it; our WeakMap caches it.
        ajv.removeSchema(body);
        break;
      } catch (error) {
        ajv.removeSchema(body);
        failure = error;
      }
    }
    if (!compiled) {
      this.logger.warn('inputSchema does not compile; arguments are not checked here', {
        toolKey,
        error: errorMessage(failure),
      });
    }
    this.cache.set(schema, compiled);
    return compiled;
  }

  /** The Ajv instances to try, in order, for a schema's `$schema`. */
  private dialectsFor(toolKey: string, dialect: unknown): Ajv[] {
    if (dialect === undefined) return [this.draft2020, this.draft07];
    const uri = String(dialect);
    if (uri.includes('2020-12')) return [this.draft2020];
    if (uri.includes('2019-09')) return [this.draft2019];
    if (!uri.includes('draft-07') && !uri.includes('draft-06')) {
      this.logger.debug('inputSchema names a JSON Schema dialect Ajv lacks; checked as draft-07', { toolKey, uri });
    }
    return [this.draft07];
  }
}

function toIssue(error: ErrorObject): Issue {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  let message = error.message ?? 'is invalid';
  switch (error.keyword) {
    case 'required':
      segments.push(String((error.params as { missingProperty: string }).missingProperty));
      message = 'is required';
      break;
    case 'additionalProperties':
      segments.push(String((error.params as { additionalProperty: string }).additionalProperty));
      message = 'is not allowed';
      break;
    case 'unevaluatedProperties':
      segments.push(String((error.params as { unevaluatedProperty: string }).unevaluatedProperty));
      message = 'is not allowed';
      break;
    case 'enum':
      message = `must be one of: ${((error.params as { allowedValues: unknown[] }).allowedValues ?? []).map((value) => JSON.stringify(value)).join(', ')}`;
      break;
  }
  return {
    path: ['arguments', ...segments].reduce((path, segment) =>
      /^\d+$/.test(segment)
        ? `${path}[${segment}]`
        : /^[A-Za-z_$][\w$]*$/.test(segment)
          ? `${path}.${segment}`
          : `${path}[${JSON.stringify(segment)}]`,
    ),
    message,
  };
}
