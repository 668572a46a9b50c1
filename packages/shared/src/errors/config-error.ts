import { JsonRpcErrorCode } from './json-rpc-error-code.js';
import type { Issue } from './issue.js';
import { SearchMcpError } from './search-mcp-error.js';

const name = 'ConfigError';
const marker = `search-mcp.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The configuration cannot be used at all: the file cannot be read or parsed, or a top-level section is invalid.
 * Lists every problem at once, each naming its JSON path; never holds config values.
 */
export class ConfigError extends SearchMcpError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [symbol] = true;
  readonly issues: readonly Issue[];
  /** The config file the problems were found in, when read from a file. */
  readonly file?: string;
  /** Warnings found beside the problems (an unknown key often explains a missing one). */
  readonly warnings: readonly string[];

  constructor(options: {
    issues: readonly Issue[];
    file?: string;
    warnings?: readonly string[];
    message?: string;
    cause?: unknown;
  }) {
    const where = options.file ? ` in ${options.file}` : '';
    const warnings = options.warnings ?? [];
    const listed =
      options.issues.map((issue) => `\n  - ${issue.path ? `${issue.path}: ` : ''}${issue.message}`).join('') +
      (warnings.length > 0 ? `\nWarnings:${warnings.map((warning) => `\n  - ${warning}`).join('')}` : '');
    super({
      name,
      code: 'CONFIG_ERROR',
      jsonRpcCode: JsonRpcErrorCode.InternalError,
      statusCode: 500,
      isRetryable: false,
      message: options.message ?? `Invalid configuration${where}:${listed}`,
      cause: options.cause,
    });
    this.issues = options.issues;
    this.warnings = warnings;
    if (options.file !== undefined) this.file = options.file;
  }

  static override isInstance(error: unknown): error is ConfigError {
    return SearchMcpError.hasMarker(error, marker);
  }
}
