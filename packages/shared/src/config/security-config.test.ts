import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.js';
import { parseConfig } from './parse-config.js';

describe('parseConfig: security', () => {
  it('defaults: nothing held, suspicious descriptions warned about, no rate limits', () => {
    expect(parseConfig({ mcpServers: {} }).security).toEqual({ quarantineNewServers: false, onSuspicious: 'warn' });
  });

  it('reads the rate limits, a burst defaulting to the rate, tool keys normalized and whole servers kept', () => {
    const config = parseConfig({
      mcpServers: {},
      security: {
        quarantineNewServers: true,
        onSuspicious: 'quarantine',
        rateLimits: {
          perToken: { requestsPerMinute: 60 },
          perTool: { requestsPerMinute: 10, burst: 2 },
          tools: { 'github:create_issue': { requestsPerMinute: 5 }, 'slack:*': { requestsPerMinute: 30 } },
        },
      },
    });
    expect(config.security).toEqual({
      quarantineNewServers: true,
      onSuspicious: 'quarantine',
      rateLimits: {
        perToken: { requestsPerMinute: 60, burst: 60 },
        perTool: { requestsPerMinute: 10, burst: 2 },
        tools: {
          'github:create_issue': { requestsPerMinute: 5, burst: 5 },
          'slack:*': { requestsPerMinute: 30, burst: 30 },
        },
      },
    });
  });

  it('refuses a rate that is not a positive integer, an unknown onSuspicious and a tool limit without a tool key', () => {
    const parse = (security: unknown) => () => parseConfig({ mcpServers: {}, security });
    expect(parse({ rateLimits: { perToken: { requestsPerMinute: 0 } } })).toThrow(ConfigError);
    expect(parse({ rateLimits: { perToken: { requestsPerMinute: 0 } } })).toThrow(/security\.rateLimits\.perToken/);
    expect(parse({ onSuspicious: 'block' })).toThrow(/security\.onSuspicious/);
    expect(parse({ rateLimits: { tools: { nocolon: { requestsPerMinute: 1 } } } })).toThrow(
      /expected a tool key "server:tool" or a whole server "server:\*"/,
    );
  });

  it('warns about an unknown key in the section', () => {
    const config = parseConfig({ mcpServers: {}, security: { quarantineNewServer: true } });
    expect(config.warnings.join('\n')).toMatch(/security\.quarantineNewServer/);
  });
});

describe('parseConfig: sandbox', () => {
  it('resolves a stdio server sandbox: relative paths against the config folder, read-only and no network by default', () => {
    const config = parseConfig(
      {
        mcpServers: {
          files: {
            command: 'node',
            args: ['server.js'],
            sandbox: { kind: 'bubblewrap', paths: ['data', { path: '/srv/out', writable: true }, '~/notes'] },
          },
        },
      },
      { baseDir: '/etc/app' },
    );
    const server = config.mcpServers['files'];
    expect(server?.transport === 'stdio' ? server.sandbox : undefined).toEqual({
      kind: 'bubblewrap',
      network: false,
      paths: [
        { path: '/etc/app/data', writable: false },
        { path: '/srv/out', writable: true },
        { path: '~/notes', writable: false },
      ],
    });
  });

  it("marks a sandbox on a remote server, and a docker sandbox without an image, as the entry's errors", () => {
    const config = parseConfig({
      mcpServers: {
        remote: { url: 'https://mcp.example/mcp', sandbox: { kind: 'bubblewrap' } },
        boxed: { command: 'node', sandbox: { kind: 'docker' } },
      },
    });
    expect(config.mcpServers['remote']?.configError).toMatch(/a sandbox applies to local servers/);
    expect(config.mcpServers['boxed']?.configError).toMatch(/a "docker" sandbox needs "image"/);
  });
});
