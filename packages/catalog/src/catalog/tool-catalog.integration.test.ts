import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { McpClientManager } from '@search-mcp/client-manager';
import { ServerNotRunningError, ToolDisabledError, ValidationError } from '@search-mcp/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolCatalog } from './tool-catalog.js';

const require = createRequire(import.meta.url);

function serverEntry(packageName: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = require(manifestPath) as { bin: Record<string, string> };
  return join(dirname(manifestPath), Object.values(manifest.bin)[0] as string);
}

// ToolCatalog end to end over a McpClientManager connected to the real everything and filesystem servers.
describe('ToolCatalog over real MCP servers', () => {
  let directory: string;
  let manager: McpClientManager;
  let catalog: ToolCatalog;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-catalog-'));
    manager = new McpClientManager(
      {
        mcpServers: {
          everything: {
            command: process.execPath,
            args: [serverEntry('@modelcontextprotocol/server-everything')],
            description: 'MCP reference server',
          },
          filesystem: {
            command: process.execPath,
            args: [serverEntry('@modelcontextprotocol/server-filesystem'), directory],
            description: 'Local files',
            toolPermissions: { move_file: false },
          },
        },
      },
      { shutdownGraceMs: 500 },
    );
    await manager.startAll();
    catalog = new ToolCatalog({ sources: [manager], config: manager.config, executor: { retryDelayMs: 10 } });
  });

  afterAll(async () => {
    await manager?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('finds the right tool in English and Japanese', async () => {
    expect((await catalog.search({ query: 'echo back a message' })).results[0]?.toolKey).toBe('everything:echo');
    expect((await catalog.search({ query: 'add two numbers' })).results[0]?.toolKey).toBe('everything:get-sum');
    const write = await catalog.search({ query: 'ファイルに書き込む' });
    expect(write.results.slice(0, 3).map((hit) => hit.toolKey)).toContain('filesystem:write_file');
    const listing = await catalog.search({ query: ['show what is in a folder', 'list directory contents'] });
    expect(listing.results.slice(0, 3).map((hit) => hit.toolKey)).toContain('filesystem:list_directory');
  });

  it('never shows or runs a tool whose permission is false', async () => {
    const hits = await catalog.search({ query: 'move or rename a file', maxResults: 50 });
    expect(hits.results.map((hit) => hit.toolKey)).not.toContain('filesystem:move_file');
    await expect(catalog.execute('filesystem:move_file', { source: 'a', destination: 'b' })).rejects.toThrow(
      ToolDisabledError,
    );
  });

  it('executes tools with any key form and passes results through', async () => {
    const echo = await catalog.execute('everything.echo', { message: 'through the catalog' });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: through the catalog' }]);
    const path = join(directory, 'note.txt');
    await catalog.execute('filesystem__write_file', { path, content: 'catalog wrote this' });
    expect(await readFile(path, 'utf8')).toBe('catalog wrote this');
  });

  it('validates arguments before they reach the backend', async () => {
    const failure = await catalog.execute('everything:get-sum', { a: 'one' }).catch((error: unknown) => error);
    expect(ValidationError.isInstance(failure)).toBe(true);
    expect((failure as ValidationError).issues.map((issue) => issue.path).sort()).toEqual([
      'arguments.a',
      'arguments.b',
    ]);
  });

  it('forwards progress', async () => {
    const progress: number[] = [];
    await catalog.execute(
      'everything:trigger-long-running-operation',
      { duration: 0.4, steps: 2 },
      {},
      { onProgress: (update) => progress.push(update.progress) },
    );
    expect(progress).toEqual([1, 2]);
  });

  it('reports a stopped server as not running', async () => {
    await manager.stop('everything');
    await expect(catalog.execute('everything:echo', { message: 'x' })).rejects.toThrow(ServerNotRunningError);
    expect((await catalog.search({ query: 'echo back a message' })).results.map((hit) => hit.serverName)).not.toContain(
      'everything',
    );
    await manager.start('everything');
    expect((await catalog.search({ query: 'echo back a message' })).results[0]?.toolKey).toBe('everything:echo');
  });
});
