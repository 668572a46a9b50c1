/**
 * An approval refused because what waits is no longer what was shown (docs/trust.md, "Pinning and quarantine"): the
 * CLI, the REST API and the console pass the hashes of the definitions they displayed, and a definition that changed
 * again meanwhile (or a tool that started waiting after the diff was shown) is not pinned unseen.
 */
const marker = Symbol.for('search-mcp.ApprovalChangedError');

export class ApprovalChangedError extends Error {
  readonly code = 'APPROVAL_CHANGED';
  /** `server:tool` of each tool whose pending definition differs from the one shown. */
  readonly toolKeys: readonly string[];
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [marker] = true;

  constructor(toolKeys: readonly string[]) {
    super(`${toolKeys.join(', ')} changed again since shown; review again (nothing was approved)`);
    this.name = 'ApprovalChangedError';
    this.toolKeys = toolKeys;
  }

  /** True across copies of the package (the marker is a global symbol). */
  static isInstance(error: unknown): error is ApprovalChangedError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}
