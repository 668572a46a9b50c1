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
