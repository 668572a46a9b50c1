/** The 22 real MCP servers' recorded tool lists (fixtures/real-servers, 237 tools), as the catalog passes them. */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ToolInfo } from '@search-mcp/shared';

const directory = fileURLToPath(new URL('../../../fixtures/real-servers/', import.meta.url));

export function loadRealServerTools(): ToolInfo[] {
  const tools: ToolInfo[] = [];
  for (const file of readdirSync(directory)
    .filter((name) => name.endsWith('.tools.json'))
    .sort()) {
    const server = file.slice(0, -'.tools.json'.length);
    const data: unknown = JSON.parse(readFileSync(`${directory}${file}`, 'utf8'));
    const list = (Array.isArray(data) ? data : (data as { tools: unknown[] }).tools) as Array<{
      name: string;
      description?: string;
      inputSchema?: ToolInfo['inputSchema'];
    }>;
    for (const tool of list) {
      tools.push({
        toolKey: `${server}:${tool.name}`,
        toolName: tool.name,
        serverName: server,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema ?? { type: 'object' },
      });
    }
  }
  return tools;
}
