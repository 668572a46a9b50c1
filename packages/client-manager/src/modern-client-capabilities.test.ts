import type { ChildProcess } from 'node:child_process';
import { BackendError } from '@search-mcp/shared';
import { fixtureServer, startHttpFixture } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../test/test-support.js';
import { McpClientManager, type ReverseRequestRouter } from './index.js';

/**
 * A 2026-07-28 backend hears, in each request's envelope, what the client that request serves declared (the
 * router's `clientCapabilities(serverId, origin)`), never more: a tool that needs sampling is refused with `-32021`
 * for a client that cannot sample. The modern fixture over stdio and Streamable HTTP.
 */

/** A client session of the host, as opaque to the manager as any origin. */
interface Caller {
  capabilities: Record<string, unknown>;
}

const everything = { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } };
const tasksExtension = 'io.modelcontextprotocol/tasks';

function textOf(result: Record<string, unknown>): string {
  const [block] = (result.content as { text?: unknown }[] | undefined) ?? [];
  return String(block?.text);
}

describe('client capabilities told to 2026-07-28 backends', () => {
  const router: ReverseRequestRouter = {
    // The connection's capabilities are everything any client might answer; each request narrows them.
    clientCapabilities: (_serverId, origin) => (origin as Caller | undefined)?.capabilities ?? everything,
    route: async () => ({ action: 'decline' }),
  };
  let manager: McpClientManager;
  let http: { child: ChildProcess; url: string };

  beforeAll(async () => {
    http = await startHttpFixture();
    manager = new McpClientManager(
      {
        mcpServers: {
          modern: fixtureServer('modern-server.mjs'),
          'modern-http': { url: http.url },
          tasks: fixtureServer('modern-server.mjs', ['--tasks']),
        },
      },
      { logger: createRecordingLogger().logger, reverseRequests: router, shutdownGraceMs: 300 },
    );
    await manager.startAll();
  }, 60_000);

  afterAll(async () => {
    await manager?.close();
    http?.child.kill();
  });

  const told = async (id: string, origin?: Caller, task = false) =>
    JSON.parse(
      textOf(
        await manager.callTool(
          id,
          'client-capabilities',
          {},
          { ...(origin ? { origin } : {}), ...(task ? { task: {} } : {}) },
        ),
      ),
    ) as Record<string, unknown>;

  for (const id of ['modern', 'modern-http']) {
    it(`declares what the calling client declared (${id})`, async () => {
      expect(manager.status().find((status) => status.id === id)?.protocolVersion).toBe('2026-07-28');
      expect(await told(id, { capabilities: {} })).toEqual({});
      expect(await told(id, { capabilities: { elicitation: { form: {} } } })).toEqual({ elicitation: { form: {} } });
      // A request made for no client keeps the connection's capabilities.
      expect(await told(id)).toEqual(everything);
    });
  }

  it('refuses a tool that needs sampling with -32021 for a client that cannot sample (HTTP)', async () => {
    const failure = await manager
      .callTool('modern-http', 'sample', { prompt: 'hi' }, { origin: { capabilities: {} } })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(BackendError.isInstance(failure), String(failure)).toBe(true);
    expect((failure as BackendError).backendCode).toBe(-32021);
    // A client that can sample is asked instead.
    const asked = await manager.callTool(
      'modern-http',
      'sample',
      { prompt: 'hi' },
      { origin: { capabilities: { sampling: {} } } },
    );
    expect(asked).toMatchObject({ resultType: 'input_required' });
  });

  it('adds the tasks extension to the calling client’s capabilities on a call that may take a task', async () => {
    expect(await told('tasks', { capabilities: {} }, true)).toEqual({ extensions: { [tasksExtension]: {} } });
    expect(await told('tasks', { capabilities: { sampling: {} } }, false)).toEqual({ sampling: {} });
  });
});
