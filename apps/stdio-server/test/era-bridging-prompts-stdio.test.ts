/**
 * Issue 10's era bridging for `prompts/get` and `resources/read` over stdio, through the built binary: a 2025 backend
 * pushes `elicitation/create` during the request (the 2.x fixture served in 2025 — `--both`, `"protocol": "2025"` —
 * whose SDK shim turns its multi-round prompt `confirm` and resource `modern://asked` into push requests), and a
 * 2026-07-28 client of search-mcp, which has no server-to-client requests, is asked inside an `input_required`
 * result that its 2.x SDK client fulfils with its handler and retries; search-mcp continues the held backend request.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectProtocolEraClient, fillForm, fixtureServerPath, type ProtocolEraSession } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, deadlineMs, eventually } from './forwarding-support.js';

const modernServer = fixtureServerPath('modern-server.mjs');

let directory: string;
let session: ProtocolEraSession;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-era-bridging-prompts-'));
  const configPath = join(directory, 'config.json');
  await writeFile(
    configPath,
    JSON.stringify({
      mcpServers: { legacy: { command: process.execPath, args: [modernServer, '--both'], protocol: '2025' } },
    }),
  );
  session = await connectProtocolEraClient(
    'sdk2-2026',
    {
      transport: 'stdio',
      command: process.execPath,
      args: [cli, '--config', configPath],
      env: { HOME: directory, SEARCH_MCP_WATCH: '0' },
    },
    { connectTimeoutMs: deadlineMs, handlers: { elicitation: (params) => fillForm(params, 'Ada') } },
  );
  await eventually(async () => {
    const listed = await session.request('prompts/list', {});
    return JSON.stringify(listed).includes('legacy__confirm') ? true : undefined;
  }, 'the 2025 backend lists its prompts');
}, 90_000);

afterAll(async () => {
  await session?.close();
  await rm(directory, { recursive: true, force: true });
});

/** The wire of one request: pushed requests from search-mcp, and `input_required` results. */
async function observe(run: () => Promise<Record<string, unknown>>) {
  const asked = session.asked.length;
  const received = session.received.length;
  const result = await run();
  const wire = session.received.slice(received);
  return {
    result,
    asked: session.asked.slice(asked),
    pushed: wire.filter((message) => typeof message.method === 'string' && 'id' in message).length,
    inputRequired: wire.filter(
      (message) => (message.result as { resultType?: unknown } | undefined)?.resultType === 'input_required',
    ).length,
  };
}

describe('a 2026-07-28 client, a 2025 backend that asks during prompts/get and resources/read', () => {
  it('is asked in one input_required round each, and gets the answer built from its reply', async () => {
    expect(session.era).toBe('modern');
    const prompt = await observe(() => session.request('prompts/get', { name: 'legacy__confirm' }));
    expect(prompt.result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Confirmed: Ada' } }]);
    expect(prompt.asked).toEqual([
      { method: 'elicitation/create', params: expect.objectContaining({ message: 'Confirm what?' }) },
    ]);
    expect(prompt).toMatchObject({ pushed: 0, inputRequired: 1 });

    const resource = await observe(() => session.request('resources/read', { uri: 'modern://asked' }));
    expect(resource.result.contents).toEqual([
      { uri: 'modern://asked', mimeType: 'text/plain', text: 'You said: Ada' },
    ]);
    expect(resource.asked.map((asked) => asked.params.message)).toEqual(['What should the resource say?']);
    expect(resource).toMatchObject({ pushed: 0, inputRequired: 1 });
  });
});
