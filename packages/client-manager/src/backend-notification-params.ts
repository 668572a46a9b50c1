import type { LoggingLevel } from '@search-mcp/shared';

/** The params of a backend's `notifications/message`, as sent (the manager's `log-message` event). */
export type LogMessageParams = { level: LoggingLevel; logger?: string; data: unknown } & Record<string, unknown>;

/** The params of a backend's `notifications/tasks/status`, as sent (the manager's `task-status` event). */
export type TaskStatusParams = { taskId: string; status: string } & Record<string, unknown>;
