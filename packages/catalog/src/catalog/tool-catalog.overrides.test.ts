import {
  type SearchMcpConfigInput,
  ToolDisabledError,
  type ToolInfo,
  ToolNotFoundError,
  type ToolOverride,
} from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../registry/tool-registry.js';
import { ToolCatalog } from './tool-catalog.js';
import { applyToolOverrides } from './tool-overrides.js';

/** A registry as server `files` (configured, so its overrides apply); each tool answers with its own name. */
function setUp(tools: Record<string, ToolOverride>, exposure: SearchMcpConfigInput['exposure'] = {}) {
  const registry = new ToolRegistry({ serverId: 'files', description: 'Files on disk' });
  const answer = (name: string) => () => `ran ${name}`;
  registry.register({ name: 'read-text-file', description: 'Read the complete contents of a file' }, answer('read'));
  registry.register({ name: 'write-file', description: 'Create or overwrite a file' }, answer('write'));
  registry.register({ name: 'delete-file', description: 'Delete a file' }, answer('delete'));
  registry.register({ name: 'list', description: 'List a directory' }, answer('list'));
  const config = (overrides: Record<string, ToolOverride>): SearchMcpConfigInput => ({
    mcpServers: { files: { command: 'files-server', tools: overrides } },
    exposure,
  });
  const catalog = new ToolCatalog({ sources: [registry], config: config(tools), executor: { retries: 0 } });
  return { catalog, registry, config };
}

const keys = (tools: readonly ToolInfo[]) => tools.map((tool) => tool.toolKey).sort();

describe('ToolCatalog: per-tool overrides', () => {
  it('renames a tool everywhere: its key, search, get, and calls reach the backend under its own name', async () => {
    const { catalog } = setUp({
      'read-text-file': {
        name: 'read_file',
        title: 'Read file',
        description: 'Open a document and return its text',
        annotations: { readOnlyHint: true },
      },
    });
    const tools = await catalog.visibleTools();
    expect(keys(tools)).toEqual(['files:delete-file', 'files:list', 'files:read_file', 'files:write-file']);
    const read = await catalog.get('files:read_file');
    expect(read).toMatchObject({
      toolName: 'read_file',
      originalName: 'read-text-file',
      title: 'Read file',
      description: 'Open a document and return its text',
      annotations: { readOnlyHint: true },
    });
    // The new description is what search indexes.
    const { results } = await catalog.search({ query: 'open a document' });
    expect(results[0]?.toolKey).toBe('files:read_file');
    expect(await catalog.execute('files__read_file', {})).toEqual({ content: [{ type: 'text', text: 'ran read' }] });
    // The backend's name is not a key any more.
    await expect(catalog.execute('files:read-text-file', {})).rejects.toThrow(ToolNotFoundError);
  });

  it('hides a tool with enabled: false, and says why when it is called', async () => {
    const { catalog } = setUp({ 'delete-file': { enabled: false } });
    expect(keys(await catalog.visibleTools())).not.toContain('files:delete-file');
    const failure = await catalog.execute('files:delete-file', {}).catch((error: unknown) => error);
    expect(ToolDisabledError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toContain('tools.delete-file.enabled is false');
  });

  it('keeps both names and warns when a rename would take a name the server already has', async () => {
    const { catalog } = setUp({
      'write-file': { name: 'list' },
      'read-text-file': { name: 'x' },
      'delete-file': { name: 'x' },
    });
    expect(keys(await catalog.visibleTools())).toEqual([
      'files:delete-file',
      'files:list',
      'files:read-text-file',
      'files:write-file',
    ]);
    expect(await catalog.execute('files:list', {})).toEqual({ content: [{ type: 'text', text: 'ran list' }] });
    expect(await catalog.namingWarnings()).toEqual([
      'mcpServers.files.tools["read-text-file"].name: "x" would also be the name of "delete-file" of this server; "read-text-file" keeps its own name',
      'mcpServers.files.tools["delete-file"].name: "x" would also be the name of "read-text-file" of this server; "delete-file" keeps its own name',
      'mcpServers.files.tools["write-file"].name: "list" would also be the name of "list" of this server; "write-file" keeps its own name',
    ]);
  });

  it('warns about a pinned key that still names a renamed tool by its old name', async () => {
    const { catalog } = setUp({ list: { name: 'list_directory' } }, { pinned: ['files:list'] });
    expect(await catalog.namingWarnings()).toEqual([
      'exposure.pinned[0]: "files:list" is renamed to "files:list_directory" by mcpServers.<server>.tools; pin the new key',
    ]);
  });

  it('warns about an override of a tool the server does not list, and changes nothing', async () => {
    const { catalog } = setUp({ 'read-fil': { name: 'read' } });
    expect(keys(await catalog.visibleTools())).toContain('files:read-text-file');
    expect(await catalog.namingWarnings()).toEqual([
      'mcpServers.files.tools["read-fil"]: server "files" lists no tool of this name; the override does nothing',
    ]);
  });

  it('takes changed overrides on reconfigure, and tells who listens', async () => {
    const { catalog, config } = setUp({});
    expect(keys(await catalog.visibleTools())).toContain('files:list');
    let told = 0;
    const stop = catalog.onNamingChanged(() => {
      told += 1;
    });
    catalog.reconfigure(config({ list: { name: 'list_directory', description: 'Lists a folder' } }));
    expect(told).toBe(1);
    expect(keys(await catalog.visibleTools())).toContain('files:list_directory');
    expect((await catalog.get('files:list_directory')).description).toBe('Lists a folder');
    catalog.reconfigure(config({ list: { name: 'list_directory', description: 'Lists a folder' } }));
    expect(told).toBe(1);
    stop();
    catalog.reconfigure(config({}));
    expect(told).toBe(1);
    expect(keys(await catalog.visibleTools())).toContain('files:list');
  });

  it('names the tool names two servers share under exposure.names "original"', async () => {
    const { catalog, registry } = setUp({}, { names: 'original' });
    const other = new ToolRegistry({ serverId: 'backup' });
    other.register({ name: 'list', description: 'List backups' }, () => 'backups');
    const both = new ToolCatalog({ sources: [registry, other], config: catalog.config });
    expect(await both.namingWarnings()).toEqual([
      'exposure.names: "list" is a tool of "files" and "backup"; they are listed as files__list and backup__list (rename one with mcpServers.<server>.tools)',
    ]);
  });
});

describe('applyToolOverrides', () => {
  const tool = (toolName: string): ToolInfo => ({
    toolKey: `s:${toolName}`,
    toolName,
    serverName: 's',
    description: 'as listed',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: false, openWorldHint: true },
    definition: { name: toolName, description: 'as listed', inputSchema: { type: 'object' }, icons: [] },
  });
  const configWith = (tools: Record<string, ToolOverride>) =>
    new ToolCatalog({ sources: [], config: { mcpServers: { s: { command: 'x', tools } } } }).config;

  it('shows the override in the definition passed through in proxy mode, annotations merged hint by hint', () => {
    const { tools } = applyToolOverrides(
      [tool('a')],
      configWith({ a: { name: 'b', description: 'better', annotations: { readOnlyHint: true } } }),
    );
    expect(tools[0]?.definition).toEqual({
      name: 'b',
      description: 'better',
      inputSchema: { type: 'object' },
      icons: [],
      annotations: { readOnlyHint: true, openWorldHint: true },
    });
  });

  it('swaps two names without a warning', () => {
    const { tools, warnings } = applyToolOverrides(
      [tool('a'), tool('b')],
      configWith({ a: { name: 'b' }, b: { name: 'a' } }),
    );
    expect(tools.map((entry) => [entry.toolKey, entry.originalName])).toEqual([
      ['s:b', 'a'],
      ['s:a', 'b'],
    ]);
    expect(warnings).toEqual([]);
  });
});
