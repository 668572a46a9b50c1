/** The catalog under test: two registries (one for project `web`), a disconnected backend, projects and tokens. */
import {
  ServerNotRunningError,
  type ServerState,
  type ToolCallResult,
  type ToolInfo,
  type ToolSource,
} from '@search-mcp/shared';
import { KeywordOverlapProvider } from './keyword-overlap-provider.js';
import type { SearchProvider } from '../src/search-provider.js';
import { ToolCatalog } from '../src/catalog/tool-catalog.js';
import { ToolRegistry } from '../src/registry/tool-registry.js';

/** A backend server that is configured but not connected: lists nothing, refuses calls. */
export class DisconnectedSource implements ToolSource {
  readonly toolsRevision = 0;
  calls = 0;
  constructor(readonly serverIds: readonly string[]) {}
  async listAllTools(): Promise<ToolInfo[]> {
    return [];
  }
  async callTool(serverId: string): Promise<ToolCallResult> {
    this.calls += 1;
    throw new ServerNotRunningError({ serverId });
  }
}

/** A backend server in a given state that lists no tool the caller may see (all blocked, or all malformed). */
export class NoVisibleToolsSource implements ToolSource {
  readonly toolsRevision = 0;
  calls = 0;
  constructor(
    readonly serverIds: readonly string[],
    private readonly state: ServerState,
  ) {}
  async listAllTools(): Promise<ToolInfo[]> {
    return [];
  }
  serverState(serverId: string): ServerState | undefined {
    return this.serverIds.includes(serverId) ? this.state : undefined;
  }
  async callTool(serverId: string): Promise<ToolCallResult> {
    this.calls += 1;
    throw new ServerNotRunningError({ serverId });
  }
}

/** A ranker that returns every tool it is given, and remembers the arrays it was given. */
export class RecordingProvider implements SearchProvider {
  readonly id = 'recording';
  readonly received: Array<readonly ToolInfo[]> = [];
  async search({ tools, maxResults }: { tools: readonly ToolInfo[]; maxResults: number }) {
    this.received.push(tools);
    return tools
      .slice(0, maxResults)
      .map((tool) => ({ toolKey: tool.toolKey, toolName: tool.toolName, serverName: tool.serverName, relevance: 1 }));
  }
}

export function setUp(
  overrides: {
    searchProvider?: SearchProvider;
    cloudProvider?: SearchProvider;
    strategy?: 'bm25' | 'cloud' | 'off';
  } = {},
) {
  const local = new ToolRegistry({ description: 'Tools of the host' });
  local.register(
    {
      name: 'echo',
      description: 'Echo a message back',
      parameters: [{ name: 'message', type: 'string', description: 'text', required: true }],
    },
    ({ message }) => `echo: ${String(message)}`,
    { category: 'text', tags: ['demo'] },
  );
  local.register(
    {
      name: 'add',
      description: 'Add two numbers',
      parameters: [
        { name: 'a', type: 'number', description: 'first', required: true },
        { name: 'b', type: 'number', description: 'second', required: true },
      ],
    },
    ({ a, b }) => Number(a) + Number(b),
    { category: 'math' },
  );
  local.register({ name: 'secret', description: 'Switched off by the host' }, () => 'no', { disabled: true });
  const web = new ToolRegistry({ serverId: 'webtools', projects: ['web'] });
  web.register({ name: 'deploy', description: 'Deploy the web site' }, () => 'deployed');
  web.register({ name: 'rollback', description: 'Undo the last deploy' }, () => 'rolled back', { disabled: true });
  const down = new DisconnectedSource(['fs', 'off']);
  const catalog = new ToolCatalog({
    sources: [local, web, down],
    config: {
      mcpServers: {
        fs: { command: 'fs-server', toolPermissions: { delete_file: false } },
        off: { command: 'off-server', enabled: false },
        team: { command: 'team-server', projects: ['web'] },
      },
      search: {
        strategy: overrides.strategy ?? 'bm25',
        maxResults: 3,
        ...(overrides.strategy === 'cloud' ? { cloud: { url: 'http://127.0.0.1:9' } } : {}),
      },
      projects: { web: { optimization: 'bm25' }, quiet: { optimization: null } },
      auth: {
        tokens: [
          { id: 'ci', token: 'ci-secret', projects: ['web'] },
          { id: 'admin', token: 'admin-secret' },
        ],
      },
    },
    searchProvider: overrides.searchProvider ?? new KeywordOverlapProvider(),
    ...(overrides.cloudProvider ? { cloudProvider: overrides.cloudProvider } : {}),
    executor: { retries: 2, retryDelayMs: 5 },
  });
  return { catalog, local, web, down };
}
