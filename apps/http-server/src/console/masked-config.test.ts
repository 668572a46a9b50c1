import { createGrowingSecretRedactor, parseConfig } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { maskedConfig } from './masked-config.js';

describe('maskedConfig', () => {
  it('masks tokens, env and header values, OAuth client secrets and API keys, and what only the redactor knows', () => {
    const config = parseConfig({
      mcpServers: {
        local: {
          command: 'node',
          args: ['server.js', '--api-key=arg-secret-0123456789abc'],
          env: { HOME_DIR: '/home/me' },
        },
        remote: {
          url: 'https://mcp.example.com/mcp',
          headers: { 'X-Api-Key': 'header-secret-0123456789' },
          oauth: { clientId: 'search-mcp', clientSecret: 'client-secret-0123456789' },
        },
      },
      auth: { tokens: [{ id: 'main', token: 'main-token-0123456789-abcdef' }] },
    });
    const masked = maskedConfig(config, createGrowingSecretRedactor(['arg-secret-0123456789abc']));
    const text = JSON.stringify(masked);
    for (const secret of ['header-secret-0123456789', 'client-secret-0123456789', 'main-token-0123456789-abcdef']) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toContain('arg-secret-0123456789abc');
    // Every env value is masked: which of them is a secret is not known.
    expect(text).not.toContain('/home/me');
    expect(text).toContain('https://mcp.example.com/mcp');
    expect(text).toContain('"clientId":"search-mcp"');
  });
});

describe('maskedConfig, structurally (short secrets the redactor would leave alone)', () => {
  it('masks URL credentials and query values, credential arguments and the argument after a credential flag', () => {
    const config = parseConfig({
      mcpServers: {
        remote: { url: 'https://user:abc@mcp.example.com/mcp?key=xyz12&region=eu' },
        tool: {
          command: 'node',
          args: [
            'server.js',
            '--token=abc',
            '--api-key',
            'xyz12',
            '-e',
            'GITHUB_PAT=abc',
            '--verbose',
            'https://me:pw9@h.example/x',
          ],
        },
      },
    });
    const masked = maskedConfig(config, createGrowingSecretRedactor([])) as {
      mcpServers: Record<string, { url?: string; args?: string[] }>;
    };
    expect(masked.mcpServers.remote?.url).toBe('https://••••:••••@mcp.example.com/mcp?key=••••&region=••••');
    expect(masked.mcpServers.tool?.args).toEqual([
      'server.js',
      '--token=••••',
      '--api-key',
      '••••',
      '-e',
      'GITHUB_PAT=••••',
      '--verbose',
      'https://••••:••••@h.example/x',
    ]);
    const text = JSON.stringify(masked);
    for (const secret of ['abc', 'xyz12', 'pw9', 'user:']) expect(text).not.toContain(secret);
  });
});
