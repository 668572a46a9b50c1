/** What every part of `parseConfig` shares: the options, the issues found so far, validation and expansion. */
import type * as z from 'zod';
import type { Issue } from '../errors/issue.js';
import { ConfigError } from '../errors/config-error.js';
import { type ConfigPath, formatConfigPath, toPathSegment } from './config-path.js';
import { isAbsolutePath } from './config-values.js';
import { expandVariables, type VariableEnvironment } from './env-expansion.js';
import { describeSchemaIssue } from './schema-issue-message.js';

export interface ParseConfigOptions {
  /** Variables for `${VAR}`; default `process.env` where there is one. */
  env?: VariableEnvironment;
  /** The file the config came from, named in the error. */
  file?: string;
  /** Directory that relative `cwd` and `audit.file` are resolved against (the config file's directory). */
  baseDir?: string;
}

/** Collects issues and holds what every section needs: variables and the base directory. */
export class ParseContext {
  readonly issues: Issue[] = [];
  private readonly env: VariableEnvironment;

  constructor(private readonly options: ParseConfigOptions) {
    this.env = options.env ?? globalThis.process?.env ?? {};
  }

  report(path: ConfigPath, message: string): void {
    this.issues.push({ path: formatConfigPath(path), message });
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

  /** Expands `${VAR}` references; an unset variable without default is reported under `path`. */
  expand(text: string, path: ConfigPath): { value: string; complete: boolean } {
    const { value, missing } = expandVariables(text, this.env);
    for (const name of missing) this.report(path, `environment variable ${name} is not set`);
    return { value, complete: missing.length === 0 };
  }

  /** Makes a relative file path absolute against the base directory, when there is one. */
  resolvePath(filePath: string): string {
    const baseDir = this.options.baseDir;
    if (baseDir === undefined || baseDir === '' || isAbsolutePath(filePath)) return filePath;
    return `${baseDir.replace(/[\\/]+$/, '')}/${filePath}`;
  }

  toError(): ConfigError {
    return new ConfigError({ issues: this.issues, file: this.options.file });
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
