import type { Server } from '@modelcontextprotocol/server';
import type { McpServerOverrides } from './mcp-server-factory.js';

/** Builds one server instance for one request of `era` (the runtime's `serverFactory`). */
export type EraServerFactory = (context: { era: 'legacy' | 'modern' }, overrides: McpServerOverrides) => Server;
