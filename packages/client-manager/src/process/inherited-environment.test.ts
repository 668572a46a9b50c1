import { afterEach, describe, expect, it } from 'vitest';
import { loadLegacyClient } from '../legacy/legacy-client-loader.js';
import { inheritedEnvironment } from './inherited-environment.js';

describe('inheritedEnvironment', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  it("is the 1.x SDK's default environment, whatever the host's variables", async () => {
    const { sdkDefaultEnvironment } = await loadLegacyClient();
    expect(inheritedEnvironment()).toEqual(sdkDefaultEnvironment());
    // A shell function is dropped, an unset variable is absent, anything else passes; both agree on each.
    process.env.TERM = '() { echo exported function; }';
    delete process.env.LOGNAME;
    process.env.SHELL = '/bin/sh';
    process.env.SEARCH_MCP_NOT_INHERITED = 'x';
    expect(inheritedEnvironment()).toEqual(sdkDefaultEnvironment());
    expect(inheritedEnvironment()).toMatchObject({ SHELL: '/bin/sh' });
    expect(inheritedEnvironment()).not.toHaveProperty('TERM');
    expect(inheritedEnvironment()).not.toHaveProperty('SEARCH_MCP_NOT_INHERITED');
  });

  it('reads the environment it is given', () => {
    expect(inheritedEnvironment({ PATH: '/usr/bin', HOME: '() {', OTHER: 'y' })).toEqual({ PATH: '/usr/bin' });
  });
});
