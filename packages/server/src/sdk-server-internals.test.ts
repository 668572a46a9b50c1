import { Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { sdkHandlerWrapper, sdkRequestDispatch, sdkServerInternalsPresent } from './sdk-server-internals.js';

// Guards an SDK upgrade: the members `sdk-server-internals.ts` reaches are still where it expects them. What each
// does for us is tested where it is used (`params-checking-server.test.ts`, `direct-request-dispatch.test.ts`).
describe('the SDK Server members this package reaches below its public API', () => {
  it('are all present on the installed SDK', () => {
    expect(sdkServerInternalsPresent()).toBe(true);
  });

  it("give the Server's own wrapper and a dispatch bound to the instance", async () => {
    const server = new Server({ name: 'internals', version: '1' }, { capabilities: { prompts: {} } });
    const wrapped = sdkHandlerWrapper(server, 'prompts/list', async () => ({ prompts: [] }));
    expect(typeof wrapped).toBe('function');
    expect(typeof sdkRequestDispatch(server)).toBe('function');
  });
});
