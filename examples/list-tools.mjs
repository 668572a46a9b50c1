#!/usr/bin/env node
// The main job until the `search-mcp` CLI lands: connect every server of a config through McpClientManager,
// print their state and tools, and make one real call. Progress goes to stderr, results to stdout.
import { McpClientManager } from '@search-mcp/client-manager';
import { ConfigError, createJsonLineLogger } from '@search-mcp/shared';

const configPath = process.argv[2] ?? 'examples/mcp-servers.json';
const logger = createJsonLineLogger({
  level: process.env.SEARCH_MCP_LOG_LEVEL ?? 'error',
  write: (line) => process.stderr.write(line),
});

let manager;
try {
  manager = await McpClientManager.fromFile(configPath, { logger });
} catch (error) {
  if (ConfigError.isInstance(error)) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  throw error;
}

const started = performance.now();
process.stderr.write(`Connecting ${manager.serverIds.length} servers from ${configPath} …\n`);
manager.on('status-change', (status) => {
  if (status.state === 'running')
    process.stderr.write(`  ✓ ${status.id}: ${status.toolCount} tools in ${Math.round(status.connectMs ?? 0)} ms\n`);
  if (status.state === 'failed') process.stderr.write(`  ✗ ${status.id}: ${status.lastError}\n`);
});

const statuses = await manager.startAll();
process.stderr.write(
  `All servers settled in ${Math.round(performance.now() - started)} ms (connected in parallel).\n\n`,
);

const table = statuses.map((status) => ({
  server: status.id,
  state: status.state,
  tools: status.toolCount,
  'connect ms': status.connectMs === undefined ? '' : Math.round(status.connectMs),
  pid: status.pid ?? '',
  'last error': status.lastError ?? '',
}));
console.table(table);

for (const tool of await manager.listAllTools()) {
  const summary = (tool.description.split(/(?<=\.)\s|\n/)[0] ?? '').slice(0, 90);
  console.log(`${tool.toolKey.padEnd(48)} ${summary}`);
}

if (statuses.some((status) => status.id === 'everything' && status.state === 'running')) {
  const result = await manager.callTool('everything', 'echo', { message: 'Hello from Search MCP' });
  console.log(`\neverything:echo → ${result.content?.map((part) => part.text ?? '').join(' ')}`);
}

await manager.close();
process.exitCode = statuses.some((status) => status.state === 'failed') ? 1 : 0;
