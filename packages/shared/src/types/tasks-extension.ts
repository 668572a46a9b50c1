import { isRecord } from '../text/is-record.js';

/** The tasks extension of MCP 2026-07-28 (`io.modelcontextprotocol/tasks`, SEP-2663). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * Whether capabilities list the tasks extension: a 2026 `server/discover` answer, a request's envelope (only a client
 * that declares it may get a task), or an error's `requiredCapabilities`. Free of SDK imports, so it can be asked before
 * any 2.x SDK code is loaded.
 */
export function listsTasksExtension(capabilities: unknown): boolean {
  return (
    isRecord(capabilities) && isRecord(capabilities.extensions) && isRecord(capabilities.extensions[TASKS_EXTENSION])
  );
}
