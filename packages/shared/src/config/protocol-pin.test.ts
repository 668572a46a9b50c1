import { describe, expect, it } from 'vitest';
import { diffServerConfigs } from './diff-server-configs.js';
import { parseConfig } from './parse-config.js';

/** The per-server `protocol` key (issue 10): which MCP revision a backend is reached in. */
describe('server entry: protocol', () => {
  const parse = (protocol: unknown) =>
    parseConfig({ mcpServers: { s: { command: 'node', args: ['server.js'], protocol } } }, { env: {} });

  it('keeps a pinned revision and leaves `auto` (the default) out', () => {
    expect(parse('2026-07-28').mcpServers.s?.protocol).toBe('2026-07-28');
    expect(parse('2025').mcpServers.s?.protocol).toBe('2025');
    expect(parse('auto').mcpServers.s).not.toHaveProperty('protocol');
    expect(parse(undefined).mcpServers.s).not.toHaveProperty('protocol');
  });

  it('makes only that server fail for an unknown revision, naming the allowed ones', () => {
    const server = parse('2024-11-05').mcpServers.s;
    expect(server?.configError).toMatch(/protocol/);
    expect(server?.configError).toContain('2026-07-28');
    expect(server).not.toHaveProperty('protocol');
  });

  it('counts as a change of the entry (a reload reconnects it in the new revision)', () => {
    expect(diffServerConfigs(parse(undefined), parse('2026-07-28')).changed).toEqual(['s']);
    expect(diffServerConfigs(parse('2026-07-28'), parse('2026-07-28')).unchanged).toEqual(['s']);
  });
});
