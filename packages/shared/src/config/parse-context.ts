/**
 * What every part of `parseConfig` shares: the options, the issues and warnings found so far, validation and
 * expansion. A server gets its own child context, so its issues become its `configError` instead of stopping the
 * whole file.
 */
import type * as z from 'zod';
import { ConfigError } from '../errors/config-error.js';
import type { Issue } from '../errors/issue.js';
import { isRecord } from '../text/is-record.js';
import { type ConfigPath, formatConfigPath, toPathSegment } from './config-path.js';
import { isAbsolutePath } from './config-values.js';
import {
  containsInputReference,
  expandVariables,
  type SecretResolver,
  type VariableEnvironment,
} from './env-expansion.js';
import { describeSchemaIssue, describeValueType } from './schema-issue-message.js';

export interface ParseConfigOptions {
  /** Variables for `${VAR}`; default `process.env` where there is one. */
  env?: VariableEnvironment;
  /**
   * Answers `${keyring:NAME}`; without it such a reference is a config error that names the fallback. The node
   * entry's `loadConfig` passes the OS keyring's (`keyringSecretResolver`).
   */
  secrets?: SecretResolver;
  /** The file the config came from, named in the error. */
  file?: string;
  /** Directory that relative `cwd`, `audit.file` and `search.hybrid.cacheDirectory` are resolved against. */
  baseDir?: string;
  /**
   * The project directory whose servers a Claude Code `~/.claude.json` adds to its user-scope servers
   * (`projects[<directory>].mcpServers`). Without it only the user scope is read.
   */
  projectDirectory?: string;
}

/** The result of an expansion: the text, and whether every variable in it was set. */
export interface Expansion {
  value: string;
  complete: boolean;
}

export class ParseContext {
  readonly issues: Issue[] = [];
  readonly env: VariableEnvironment;

  constructor(
    readonly options: ParseConfigOptions,
    /** Shared by a context and its children: warnings never stop anything. */
    readonly warnings: string[] = [],
    /** Shared too: every `${keyring:NAME}` value substituted, so the redactor masks it wherever it went. */
    readonly secretValues: string[] = [],
  ) {
    this.env = options.env ?? globalThis.process?.env ?? {};
  }

  /** A context with its own issues and the same options and warnings (for one server entry). */
  child(): ParseContext {
    return new ParseContext(this.options, this.warnings, this.secretValues);
  }

  report(path: ConfigPath, message: string): void {
    this.issues.push({ path: formatConfigPath(path), message });
  }

  warn(path: ConfigPath, message: string): void {
    const where = formatConfigPath(path);
    this.warnings.push(where === '' ? message : `${where}: ${message}`);
  }

  /** Validates `value` with `schema`, reporting each issue under `path`; undefined when invalid. */
  validate<Schema extends z.ZodType>(schema: Schema, value: unknown, path: ConfigPath): z.output<Schema> | undefined {
    const reserved = reservedKeyPaths(value, path);
    for (const reservedPath of reserved) this.report(reservedPath, RESERVED_KEY_MESSAGE);
    const result = schema.safeParse(value, { error: describeSchemaIssue });
    if (result.success) return reserved.length === 0 ? result.data : undefined;
    for (const issue of result.error.issues) {
      this.report([...path, ...issue.path.map(toPathSegment)], issue.message);
    }
    return undefined;
  }

  /**
   * Like `validate`, but always returns a value: every issue is reported, then the fields that had one are left
   * out so their defaults apply. For an entry that is kept (marked broken) with whatever could be read.
   */
  validateLeniently<Schema extends z.ZodObject>(schema: Schema, value: unknown, path: ConfigPath): z.output<Schema> {
    let record: Record<string, unknown> = {};
    if (isRecord(value)) record = value;
    else this.report(path, `expected object, got ${describeValueType(value)}`);

    const before = this.issues.length;
    const strict = this.validate(schema, record, path);
    if (strict !== undefined) return strict;
    const invalidFields = this.issues.slice(before).map((issue) => issue.path);
    const valid = Object.fromEntries(
      Object.entries(record).filter(([key]) => {
        const fieldPath = formatConfigPath([...path, key]);
        for (const invalid of invalidFields) {
          if (invalid === fieldPath || invalid.startsWith(`${fieldPath}.`) || invalid.startsWith(`${fieldPath}[`)) {
            return false;
          }
        }
        return true;
      }),
    );
    const retried = schema.safeParse(valid);
    return retried.success ? retried.data : schema.parse({});
  }

  /**
   * Expands `${VAR}` and `${keyring:NAME}` references; an unset variable without default, or a secret the keyring
   * cannot give, is reported under `path`.
   */
  expand(text: string, path: ConfigPath): Expansion {
    const { value, missing, missingSecrets, secretValues } = expandVariables(text, this.env, this.options.secrets);
    for (const name of missing) this.report(path, `environment variable ${name} is not set`);
    for (const { name, problem } of missingSecrets) {
      this.report(
        path,
        `keyring secret ${name}: ${problem}. Store it with \`search-mcp secret set ${name}\`, or write \${${name}} ` +
          `and set the environment variable ${name} (or the server's "env")`,
      );
    }
    this.secretValues.push(...secretValues);
    if (containsInputReference(text)) {
      this.report(path, 'VS Code input variables (${input:…}) are not supported: write the value or use ${VAR}');
      return { value, complete: false };
    }
    return { value, complete: missing.length === 0 && missingSecrets.length === 0 };
  }

  /** Makes a relative file path absolute against the base directory, when there is one. */
  resolvePath(filePath: string): string {
    const baseDir = this.options.baseDir;
    if (baseDir === undefined || baseDir === '' || isAbsolutePath(filePath)) return filePath;
    return `${baseDir.replace(/[\\/]+$/, '')}/${filePath}`;
  }

  toError(): ConfigError {
    return new ConfigError({ issues: this.issues, file: this.options.file, warnings: this.warnings });
  }
}

const RESERVED_KEY_MESSAGE = '"__proto__" cannot be used as a name here';

/**
 * Paths of own `__proto__` keys inside `value`. zod builds its output by assignment, which turns such a key into a
 * prototype change and silently drops it; reporting it keeps a name from vanishing without a word. (Server keys
 * are read without zod, so a server may be called `__proto__`.)
 */
function reservedKeyPaths(value: unknown, path: ConfigPath): ConfigPath[] {
  if (typeof value !== 'object' || value === null) return [];
  const found: ConfigPath[] = [];
  if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) found.push([...path, '__proto__']);
  for (const [key, item] of Object.entries(value)) {
    found.push(...reservedKeyPaths(item, [...path, Array.isArray(value) ? Number(key) : key]));
  }
  return found;
}
