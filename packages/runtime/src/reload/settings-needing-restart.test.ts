import { parseConfig, type SearchMcpConfigInput } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { type SettingsNeedingRestartOptions, settingsNeedingRestart } from './settings-needing-restart.js';

const base = {
  mcpServers: { files: { command: 'node', args: ['files.js'], toolPermissions: { write: false } } },
  projects: { web: { optimization: 'bm25' } },
  auth: { tokens: [{ id: 'ci', token: 'ci-token-0123456789' }] },
} satisfies SearchMcpConfigInput;

const withCatalog = { catalogReconfigurable: true };
const withoutCatalog = { catalogReconfigurable: false };

function compare(
  edit: (input: typeof base) => SearchMcpConfigInput,
  options: SettingsNeedingRestartOptions = withCatalog,
) {
  return settingsNeedingRestart(parseConfig(base), parseConfig(edit(structuredClone(base))), options);
}

describe('settingsNeedingRestart', () => {
  it('finds nothing when only servers come and go, or keys are merely reordered', () => {
    const reordered = { auth: base.auth, projects: base.projects, mcpServers: base.mcpServers };
    expect(compare(() => reordered, withoutCatalog)).toEqual([]);
    expect(compare((input) => ({ ...input, mcpServers: { other: { command: 'node' } } }), withoutCatalog)).toEqual([]);
  });

  it('always needs a restart for exposure, audit and the rankers built at start', () => {
    expect(
      compare((input) => ({
        ...input,
        exposure: { mode: 'proxy', pinned: ['files:read'] },
        audit: { file: '/tmp/audit.jsonl' },
        cluster: { redis: { url: 'redis://127.0.0.1:6379' } },
        search: { cloud: { url: 'https://search.example/catalog' }, llm: { model: 'other' } },
      })),
    ).toEqual(['exposure.mode', 'exposure.pinned', 'audit', 'cluster', 'search.cloud', 'search.llm']);
    // The ranker's settings filled in for a strategy new to the config are told once, with the strategy.
    expect(compare((input) => ({ ...input, projects: { web: { optimization: 'llm' } } }))).toEqual([
      'search.strategy (llm: its ranker is built at start)',
    ]);
    expect(compare((input) => ({ ...input, search: { strategy: 'hybrid' } }), withoutCatalog)).toEqual([
      'search.strategy (hybrid: its ranker is built at start)',
    ]);
  });

  it('applies what the catalog reads live only when the catalog can take a new config', () => {
    const edit = (input: typeof base) => ({
      ...input,
      search: { strategy: 'off' as const, maxResults: 5 },
      projects: { web: { optimization: null } },
      auth: { tokens: [], allowAnonymous: true },
      exposure: { names: 'original' as const },
      mcpServers: {
        files: {
          ...input.mcpServers.files,
          enabled: false,
          projects: ['web'],
          toolPermissions: {},
          tools: { read: { name: 'read_file' } },
        },
      },
    });
    expect(compare(edit)).toEqual([]);
    expect(compare(edit, { catalogReconfigurable: true, fixedByHost: ['auth'] })).toEqual(['auth']);
    expect(compare(edit, withoutCatalog)).toEqual([
      'search.strategy',
      'search.maxResults',
      'projects',
      'auth',
      'exposure.names',
      'mcpServers.files.enabled',
      'mcpServers.files.projects',
      'mcpServers.files.toolPermissions',
      'mcpServers.files.tools',
    ]);
  });
});
