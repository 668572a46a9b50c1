export { McpClientManager } from './mcp-client-manager.js';
export type { HealthCheckOptions, McpClientManagerEvents, McpClientManagerOptions } from './mcp-client-manager.js';
export type { CallToolOptions } from './server-connection.js';
export { defaultRestartPolicy, restartDelayMs } from './restart-policy.js';
export type { RestartPolicy } from './restart-policy.js';
export { StdioProcessTransport } from './stdio-process-transport.js';
export type { ProcessExit, StdioProcessTransportOptions } from './stdio-process-transport.js';
export { parseToolPage, toToolInfo } from './lenient-tool-list.js';
export type { LenientToolPage, ToolListProblem } from './lenient-tool-list.js';
