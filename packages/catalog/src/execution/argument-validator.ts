import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import {
  errorMessage,
  silentLogger,
  ValidationError,
  type Issue,
  type JsonSchemaObject,
  type Logger,
} from '@search-mcp/shared';

type Dialect = 'draft07' | 'draft2019' | 'draft2020';
type AjvClass = new (options: Options) => Ajv;

interface AjvModules {
  classes: Record<Dialect, AjvClass>;
  addFormats: (ajv: Ajv) => Ajv;
}

const settings: Options = { allErrors: true, strict: false, validateSchema: false, allowUnionTypes: true };

let ajvModules: AjvModules | undefined;
let ajvLoading: Promise<void> | undefined;

/**
 * ajv and ajv-formats (CommonJS, ~80 modules, a fifth of a second to load on a busy machine) are imported before the
 * first validation, not when the catalog is built: a server answers `initialize` and `tools/list` without them.
 * `import()` rather than `createRequire`, so that a bundler sees them: the CLI's bundle (apps/stdio-server README,
 * "How it is built") keeps one ajv for the catalog and the SDKs. Undefined once loaded, so that a call awaits nothing
 * (`ToolCatalog.execute` awaits only a pending load).
 */
export function loadArgumentValidation(): Promise<void> | undefined {
  if (ajvModules) return undefined;
  ajvLoading ??= Promise.all([
    import('ajv'),
    import('ajv/dist/2019.js'),
    import('ajv/dist/2020.js'),
    import('ajv-formats'),
  ]).then(([draft07, draft2019, draft2020, formats]) => {
    ajvModules = {
      classes: {
        draft07: exportOf<AjvClass>(draft07, 'Ajv'),
        draft2019: exportOf<AjvClass>(draft2019, 'Ajv2019'),
        draft2020: exportOf<AjvClass>(draft2020, 'Ajv2020'),
      },
      addFormats: exportOf<(ajv: Ajv) => Ajv>(formats, 'default'),
    };
  });
  // A failed import is retried by the next call rather than remembered.
  ajvLoading.catch(() => {
    ajvLoading = undefined;
  });
  return ajvLoading;
}

/**
 * A CommonJS module's export through `import()`: Node names it on the namespace (or only under `default`, the
 * `module.exports` object); a bundler's interop may nest it once more.
 */
function exportOf<T>(namespace: object, name: string): T {
  const outer = namespace as Record<string, unknown>;
  const inner = outer.default as Record<string, unknown> | undefined;
  const found = (name === 'default' ? undefined : outer[name]) ?? inner?.[name] ?? inner?.default ?? inner;
  if (typeof found !== 'function') throw new Error(`ajv: no export ${name}`);
  return found as T;
}

function createAjv(dialect: Dialect): Ajv {
  if (!ajvModules) throw new Error('ajv is not loaded yet (loadArgumentValidation() first)');
  return ajvModules.addFormats(new ajvModules.classes[dialect](settings));
}

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
  /** One Ajv per dialect, made when a schema of that dialect is first compiled. */
  private readonly ajvs = new Map<Dialect, Ajv>();
  private readonly cache = new WeakMap<object, ValidateFunction | null>();
  private readonly logger: Logger;

  constructor(options: { logger?: Logger } = {}) {
    this.logger = options.logger ?? silentLogger;
  }

  /**
   * Only after `loadArgumentValidation()` has resolved (the catalog awaits it).
   * @throws ValidationError listing every problem.
   */
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
    for (const dialectName of candidates) {
      const ajv = this.ajvFor(dialectName);
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

  private ajvFor(dialect: Dialect): Ajv {
    let ajv = this.ajvs.get(dialect);
    if (!ajv) {
      ajv = createAjv(dialect);
      this.ajvs.set(dialect, ajv);
    }
    return ajv;
  }

  /** The dialects to try, in order, for a schema's `$schema`. */
  private dialectsFor(toolKey: string, dialect: unknown): Dialect[] {
    if (dialect === undefined) return ['draft2020', 'draft07'];
    const uri = String(dialect);
    if (uri.includes('2020-12')) return ['draft2020'];
    if (uri.includes('2019-09')) return ['draft2019'];
    if (!uri.includes('draft-07') && !uri.includes('draft-06')) {
      this.logger.debug('inputSchema names a JSON Schema dialect Ajv lacks; checked as draft-07', { toolKey, uri });
    }
    return ['draft07'];
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
