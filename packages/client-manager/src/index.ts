export { McpClientManager } from './mcp-client-manager.js';
export type {
  HealthCheckOptions,
  McpClientManagerEvents,
  McpClientManagerOptions,
} from './mcp-client-manager-options.js';
export type { CallToolOptions } from './connection/forward-tool-call.js';
export { defaultRestartPolicy } from './connection/restart-policy.js';
export type { RestartPolicy } from './connection/restart-policy.js';
