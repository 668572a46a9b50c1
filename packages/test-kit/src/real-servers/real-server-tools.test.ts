import { describe, expect, it } from 'vitest';
import { loadRealServerTools, readRealServerDefinitions, realServerNames } from './real-server-tools.js';

describe('the recorded real servers', () => {
  it('loads all 22 servers and their 237 tools, each key once', () => {
    expect(realServerNames()).toHaveLength(22);
    const tools = loadRealServerTools();
    expect(tools).toHaveLength(237);
    expect(new Set(tools.map((tool) => tool.toolKey)).size).toBe(237);
    expect(tools.every((tool) => tool.toolKey === `${tool.serverName}:${tool.toolName}`)).toBe(true);
    expect(tools.every((tool) => tool.inputSchema.type === 'object' && tool.definition === undefined)).toBe(true);
  });

  it('keeps the definition as listed on request', () => {
    const [readFile] = loadRealServerTools({ withDefinitions: true }).filter(
      (tool) => tool.toolKey === 'filesystem:read_file',
    );
    expect(readFile?.definition).toEqual(
      readRealServerDefinitions('filesystem').find((definition) => definition.name === 'read_file'),
    );
  });
});
