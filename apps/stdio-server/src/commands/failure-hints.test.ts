import { describe, expect, it } from 'vitest';
import { failureHint, wrapText } from './failure-hints.js';

describe('failureHint', () => {
  it('says what to do about the common failures', () => {
    expect(failureHint('mcpServers.gh.env.TOKEN: environment variable GH_TOKEN is not set')).toBe(
      'set GH_TOKEN where the MCP client starts search-mcp, or give a default in the config: ${GH_TOKEN:-value}',
    );
    expect(
      failureHint('npm error code E404 npm error 404 Not Found - GET https://registry.npmjs.org/@x%2fnope'),
    ).toMatch(/^npm has no such package/);
    expect(failureHint('spawn uvx ENOENT')).toMatch(/^the command is not on PATH/);
    expect(failureHint('fetch failed: connect ECONNREFUSED 127.0.0.1:9')).toMatch(/^nothing listens/);
    expect(failureHint('fetch failed: getaddrinfo ENOTFOUND nowhere.invalid')).toMatch(
      /^the host name does not resolve/,
    );
    expect(failureHint("Server's protocol version is not supported: 1999-01-01")).toMatch(
      /^the server speaks an MCP version/,
    );
    expect(failureHint('the server exited with code 3')).toBeUndefined();
  });
});

describe('wrapText', () => {
  it('breaks at spaces within the width and keeps every word', () => {
    const text = 'one two three four five six seven eight nine ten';
    const lines = wrapText(text, 14);
    expect(lines).toEqual(['one two three', 'four five six', 'seven eight', 'nine ten']);
    expect(lines.join(' ')).toBe(text);
    expect(wrapText(`${'x'.repeat(30)} y`, 10)).toEqual(['x'.repeat(30), 'y']);
  });
});
