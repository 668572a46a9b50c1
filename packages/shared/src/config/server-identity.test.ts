import { describe, expect, it } from 'vitest';
import { parseConfig } from './parse-config.js';
import { findDuplicateServers, serverIdentityKey } from './server-identity.js';

describe('serverIdentityKey', () => {
  it('is equal for the same command and args, whatever else differs', () => {
    expect(serverIdentityKey({ command: 'npx', args: ['-y', 'a'] })).toBe(
      serverIdentityKey({ command: 'npx', args: ['-y', 'a'], url: 'https://ignored' }),
    );
    expect(serverIdentityKey({ command: 'npx', args: ['-y', 'a'] })).not.toBe(
      serverIdentityKey({ command: 'npx', args: ['-y', 'b'] }),
    );
    expect(serverIdentityKey({ command: 'npx', args: ['a', '-y'] })).not.toBe(
      serverIdentityKey({ command: 'npx', args: ['-y', 'a'] }),
    );
    expect(serverIdentityKey({ command: 'run' })).toBe(serverIdentityKey({ command: 'run', args: [] }));
  });

  it('reads ${env:VAR} as ${VAR} and compares URLs in normal form', () => {
    expect(serverIdentityKey({ command: 'run', args: ['${env:HOME}/x'] })).toBe(
      serverIdentityKey({ command: 'run', args: ['${HOME}/x'] }),
    );
    expect(serverIdentityKey({ url: 'https://Example.com:443/mcp/' })).toBe(
      serverIdentityKey({ url: 'https://example.com/mcp' }),
    );
    expect(serverIdentityKey({ url: 'https://example.com/mcp' })).not.toBe(
      serverIdentityKey({ url: 'https://example.com/sse' }),
    );
  });

  it('has nothing to compare without a command or URL', () => {
    expect(serverIdentityKey({})).toBeUndefined();
    expect(serverIdentityKey({ command: '', url: '' })).toBeUndefined();
  });
});

describe('findDuplicateServers', () => {
  it('groups the ids of one server, in file order', () => {
    const config = parseConfig(
      {
        mcpServers: {
          github: { command: 'npx', args: ['-y', 'server-github'], env: { T: 'a' } },
          files: { command: 'npx', args: ['-y', 'server-filesystem'] },
          'github-copy': { command: 'npx', args: ['-y', 'server-github'], env: { T: 'b' } },
          remote: { url: 'https://h/mcp' },
          'remote-again': { type: 'http', url: 'https://h/mcp/' },
          broken: { command: '${UNSET_COMMAND}' },
        },
      },
      { env: {} },
    );
    expect(findDuplicateServers(config)).toEqual([
      ['github', 'github-copy'],
      ['remote', 'remote-again'],
    ]);
  });
});
