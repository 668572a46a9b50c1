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
    // What a missing package leaves in the stderr kept (npm 10): no `E404` line, no "Not Found".
    expect(
      failureHint(
        "MCP server 'x' exited during start-up (exit code 1); stderr: npm error 404 | npm error 404  '@x/nope@*' is not " +
          'in this registry. | npm error 404 | npm error 404 Note that you can also install from a',
      ),
    ).toMatch(/^npm has no such package/);
    expect(failureHint('npm ERR! 404 Not found : @x/nope')).toMatch(/^npm has no such package/);
    expect(failureHint('spawn uvx ENOENT')).toMatch(/^the command is not on PATH/);
    expect(failureHint('fetch failed: connect ECONNREFUSED 127.0.0.1:9')).toMatch(/^nothing listens/);
    expect(failureHint('fetch failed: getaddrinfo ENOTFOUND nowhere.invalid')).toMatch(
      /^the host name does not resolve/,
    );
    expect(failureHint("Server's protocol version is not supported: 1999-01-01")).toMatch(
      /^the server speaks an MCP version/,
    );
    expect(failureHint('the server exited with code 3')).toBeUndefined();
    // The client manager's own explanation of a remote failure carries its fix.
    expect(
      failureHint(
        "MCP server 'r' cannot connect: nothing listens on 127.0.0.1:4 (ECONNREFUSED) — is the server running?",
      ),
    ).toBeUndefined();
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
