import { isRecord } from '@search-mcp/shared';

/** The tasks extension of MCP 2026-07-28 (`io.modelcontextprotocol/tasks`, SEP-2663). */
export const tasksExtension = 'io.modelcontextprotocol/tasks';

/**
 * Whether capabilities (a 2026 `server/discover` answer, a request's envelope, an error's `requiredCapabilities`)
 * list the tasks extension. Free of SDK imports: the manager asks it before any 2.x client is loaded.
 */
export function listsTasksExtension(capabilities: unknown): boolean {
  return (
    isRecord(capabilities) && isRecord(capabilities.extensions) && isRecord(capabilities.extensions[tasksExtension])
  );
}
