import { parseConfig } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { buildServerInstructions } from './server-instructions.js';

const config = parseConfig(
  {
    mcpServers: {
      files: { command: 'files-server', description: 'Files on disk' },
      web: { command: 'web-server', description: 'Web pages', projects: ['site'] },
      both: { command: 'both-server', projects: ['site', 'docs'] },
      off: { command: 'off-server', enabled: false },
      long: { command: 'long-server', description: `A description that goes on ${'and on '.repeat(30)}` },
      broken: { command: 'broken-server', env: { TOKEN: '${SEARCH_MCP_UNSET_FOR_INSTRUCTIONS}' } },
    },
  },
  { env: {} },
);

function serverLines(text: string): string[] {
  return text.split('\n').filter((line) => line.startsWith('- '));
}

describe('buildServerInstructions', () => {
  it('names the servers a caller without a project sees: enabled, without projects, entry not broken', () => {
    const text = buildServerInstructions(config, 'meta');
    expect(text).toMatch(/^Search MCP gives access to the tools of the MCP servers below\./);
    expect(serverLines(text).map((line) => line.split(':')[0])).toEqual(['- files', '- long']);
    expect(serverLines(text)[0]).toBe('- files: Files on disk');
    // Descriptions are cut to one short line.
    expect(serverLines(text)[1]?.length).toBeLessThanOrEqual(2 + 'long'.length + 2 + 80);
    expect(serverLines(text)[1]).toMatch(/…$/);
  });

  it('names the servers of the caller project, by the catalog visibility rule', () => {
    expect(serverLines(buildServerInstructions(config, 'meta', 'site'))).toEqual(['- web: Web pages', '- both']);
    expect(serverLines(buildServerInstructions(config, 'proxy', 'docs'))).toEqual(['- both']);
    expect(buildServerInstructions(config, 'proxy', 'nobody')).toBe(
      'Search MCP lists the tools of the MCP servers below as <server>__<tool>.',
    );
  });

  it('says how tools are named with exposure.names "original"', () => {
    const original = parseConfig({ mcpServers: { files: { command: 'x' } }, exposure: { names: 'original' } });
    expect(buildServerInstructions(original, 'proxy').split('\n')[0]).toBe(
      'Search MCP lists the tools of the MCP servers below under their own names (as <server>__<tool> where two ' +
        'servers share a name).',
    );
  });

  it('stays bounded however many servers there are', () => {
    const many = parseConfig({
      mcpServers: Object.fromEntries(Array.from({ length: 45 }, (_, index) => [`s${index}`, { command: 'x' }])),
    });
    const lines = serverLines(buildServerInstructions(many, 'meta'));
    expect(lines).toHaveLength(41);
    expect(lines.at(-1)).toBe('- … and 5 more');
  });
});
