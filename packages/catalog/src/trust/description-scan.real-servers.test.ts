import { readRealServerDefinitions, realServerNames } from '@search-mcp/test-kit/real-servers';
import { describe, expect, it } from 'vitest';
import { describeFindings } from './describe-findings.js';
import { scanToolDefinition } from './description-scan.js';

// The 237 recorded real tools (fixtures/real-servers) are what ordinary descriptions look like: the scanner must
// leave every one of them unflagged and unchanged, with each server scanned against all the others' names for
// shadowing, as the catalog runs it.
describe('scanToolDefinition: the 22 recorded real servers (237 tools)', () => {
  const servers = realServerNames();
  const toolNames = new Map(
    servers.map((server) => [server, readRealServerDefinitions(server).map((tool) => tool.name)]),
  );

  it('flags none of them and changes none of them', () => {
    let scanned = 0;
    const flagged: string[] = [];
    for (const server of servers) {
      const names = toolNames.get(server) ?? [];
      for (const definition of readRealServerDefinitions(server)) {
        const result = scanToolDefinition(definition, {
          serverId: server,
          serverToolNames: names,
          otherServersToolNames: toolNames,
        });
        scanned += 1;
        for (const line of describeFindings(result.findings)) flagged.push(`${server}:${definition.name} ${line}`);
        expect(result.tool).toBe(definition);
      }
    }
    expect(scanned).toBe(237);
    expect(flagged).toEqual([]);
  });
});
