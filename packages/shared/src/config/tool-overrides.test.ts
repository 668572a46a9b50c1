import { describe, expect, it } from 'vitest';
import { parseConfig } from './parse-config.js';

/** Server `s` with these `tools` overrides, parsed; its `configError` says what is wrong with them. */
function parseWithTools(tools: unknown) {
  const config = parseConfig({ mcpServers: { s: { command: 'run-s', tools } } }, { env: {} });
  const server = config.mcpServers['s'];
  if (server === undefined) throw new Error('server s is missing from the result');
  return { server, warnings: config.warnings };
}

const errorOf = (tools: unknown) => parseWithTools(tools).server.configError;

describe('parseConfig: per-tool overrides (tools)', () => {
  it('keeps every field of an override, keyed by the backend name', () => {
    const { server, warnings } = parseWithTools({
      read_file: {
        name: 'read',
        title: 'Read a file',
        description: 'Reads a UTF-8 text file',
        annotations: { readOnlyHint: true, title: 'Read' },
        enabled: true,
      },
      'fs.delete': { enabled: false },
    });
    expect(server.configError).toBeUndefined();
    expect(warnings).toEqual([]);
    expect({ ...server.tools }).toEqual({
      read_file: {
        name: 'read',
        title: 'Read a file',
        description: 'Reads a UTF-8 text file',
        annotations: { readOnlyHint: true, title: 'Read' },
        enabled: true,
      },
      'fs.delete': { enabled: false },
    });
  });

  it('leaves tools out when none are written', () => {
    expect(parseWithTools({}).server).not.toHaveProperty('tools');
    expect(parseConfig({ mcpServers: { s: { command: 'x' } } }, { env: {} }).mcpServers['s']).not.toHaveProperty(
      'tools',
    );
  });

  it('keeps a tool called like an Object member as an ordinary key', () => {
    const { server } = parseWithTools({ constructor: { name: 'build' } });
    expect(server.configError).toBeUndefined();
    expect(Object.hasOwn(server.tools ?? {}, 'constructor')).toBe(true);
    expect(server.tools?.['toString']).toBeUndefined();
  });

  it('rejects a new name clients would not accept, with its path', () => {
    const message = 'expected a name of 1 to 64 letters, digits, "_" or "-" (what MCP clients accept as a tool name)';
    expect(errorOf({ read_file: { name: 'fs.read' } })).toBe(`mcpServers.s.tools.read_file.name: ${message}`);
    expect(errorOf({ a: { name: '' } })).toBe(`mcpServers.s.tools.a.name: ${message}`);
    expect(errorOf({ a: { name: 'x'.repeat(65) } })).toBe(`mcpServers.s.tools.a.name: ${message}`);
    expect(errorOf({ a: { name: 'grüßen' } })).toBe(`mcpServers.s.tools.a.name: ${message}`);
    expect(errorOf({ a: { name: 7 } })).toBe(`mcpServers.s.tools.a.name: ${message}`);
  });

  it('rejects fields of the wrong type, with their paths', () => {
    expect(errorOf({ a: { description: 42 } })).toBe('mcpServers.s.tools.a.description: expected string, got number');
    expect(errorOf({ a: { title: null } })).toBe('mcpServers.s.tools.a.title: expected string, got null');
    expect(errorOf({ a: { enabled: 'no' } })).toBe('mcpServers.s.tools.a.enabled: expected boolean, got string');
    expect(errorOf({ a: { annotations: { readOnlyHint: 'yes' } } })).toBe(
      'mcpServers.s.tools.a.annotations.readOnlyHint: expected boolean, got string',
    );
    expect(errorOf({ a: { annotations: [] } })).toBe('mcpServers.s.tools.a.annotations: expected object, got array');
    expect(errorOf({ a: 'hide' })).toBe('mcpServers.s.tools.a: expected object, got string');
    expect(errorOf('all')).toBe('mcpServers.s.tools: expected record, got string');
    expect(errorOf({ '': { enabled: false } })).toBe(
      'mcpServers.s.tools[""]: expected the tool\'s name on its server, got ""',
    );
  });

  it('rejects unknown keys inside an override, with "did you mean"', () => {
    expect(errorOf({ a: { descripton: 'x' } })).toBe(
      'mcpServers.s.tools.a.descripton: unknown key; did you mean "description"?',
    );
    expect(errorOf({ a: { annotations: { readonlyHint: true } } })).toBe(
      'mcpServers.s.tools.a.annotations.readonlyHint: unknown key; did you mean "readOnlyHint"?',
    );
    expect(errorOf({ a: { color: 'red' } })).toBe(
      'mcpServers.s.tools.a.color: unknown key; expected one of name, title, description, annotations, enabled',
    );
  });

  it('keeps the other servers running when one has a broken override', () => {
    const config = parseConfig(
      { mcpServers: { s: { command: 'x', tools: { a: { name: 'a.b' } } }, t: { command: 'y' } } },
      { env: {} },
    );
    expect(config.mcpServers['s']?.configError).toContain('mcpServers.s.tools.a.name');
    expect(config.mcpServers['t']?.configError).toBeUndefined();
  });

  it("ignores another client's list of tool names, with a warning", () => {
    const { server, warnings } = parseWithTools(['*']);
    expect(server.configError).toBeUndefined();
    expect(server).not.toHaveProperty('tools');
    expect(warnings).toEqual([expect.stringMatching(/^mcpServers\.s\.tools: a list of tool names is another client/)]);
  });
});
