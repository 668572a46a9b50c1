import type { ServerStatus } from '@search-mcp/shared';

/** One line naming the servers whose tools were not searched or listed because they failed, or undefined. */
export function notConnectedNote(failed: readonly ServerStatus[]): string | undefined {
  if (failed.length === 0) return undefined;
  return `Not connected (their tools are missing): ${failed.map((status) => status.id).join(', ')}. Run search-mcp doctor to see why.`;
}
