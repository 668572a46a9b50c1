import { describe, expect, it } from 'vitest';
import { stateDirectory } from './state-directory.js';

describe('stateDirectory', () => {
  it('uses $SEARCH_MCP_STATE_DIR first', () => {
    expect(stateDirectory({ SEARCH_MCP_STATE_DIR: '/srv/state', XDG_STATE_HOME: '/x' }, '/home/a')).toBe('/srv/state');
  });
  it('else $XDG_STATE_HOME/search-mcp', () => {
    expect(stateDirectory({ XDG_STATE_HOME: '/x/state' }, '/home/a')).toBe('/x/state/search-mcp');
  });
  it('else ~/.local/state/search-mcp (a relative XDG_STATE_HOME is ignored)', () => {
    expect(stateDirectory({}, '/home/a')).toBe('/home/a/.local/state/search-mcp');
    expect(stateDirectory({ XDG_STATE_HOME: 'relative' }, '/home/a')).toBe('/home/a/.local/state/search-mcp');
  });
});
