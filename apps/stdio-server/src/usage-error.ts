/** A wrong command line (or a name on it that the config does not know): one line, exit code 2, nothing started. */
export class UsageError extends Error {
  /** Whether to point at `search-mcp --help` (not when the fix is in the config, e.g. an unknown server id). */
  readonly showHelpHint: boolean;

  constructor(message: string, options: { showHelpHint?: boolean } = {}) {
    super(message);
    this.name = 'UsageError';
    this.showHelpHint = options.showHelpHint ?? true;
  }
}
