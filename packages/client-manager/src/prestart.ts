/**
 * `@search-mcp/client-manager/prestart`: starting a stdio server before the client manager (and the SDKs it loads)
 * exists. This entry loads nothing but Node built-ins, so a host can spawn its server within its first milliseconds
 * and hand it to `new McpClientManager(config, { prestarted })` once that is loaded (README, "Prestarted servers").
 */
export { type PrestartedServer, prestartStdioServer, type StdioLaunch } from './process/prestarted-server.js';
