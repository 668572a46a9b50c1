/**
 * Issue 10's matrix over stdio, through the built binary: clients of both protocol eras (the 1.x SDK client, the 2.x
 * client in legacy, auto and pinned-2026 modes, and a bare peer whose first message is a 2026 request) against
 * search-mcp with `server-everything` (a 2025-era backend) and a 2026-only backend. Each client gets its own
 * search-mcp (stdio is one client per process); everything a client checks runs on that one connection, including
 * server-everything's elicitation during a call (a 2026 client gets it inside `input_required`). Then `doctor`
 * showing each backend's negotiated revision under `auto`. The era bridging of questions in every combination is
 * `era-bridging-stdio.test.ts`; proxy mode (list changes of a 2026 backend, cache hints) `era-bridging-proxy-stdio`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as Sdk2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as Sdk2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Sdk1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '@search-mcp/shared';
import {
  fixtureServerPath,
  modernRequestMeta,
  startRawStdioPeer,
  collectStderr,
  type StderrCollector,
} from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cli, deadlineMs, eventually, everythingEntry } from './forwarding-support.js';

/** A 2.x SDK backend that speaks only 2026-07-28 (refuses every 2025 request with -32022). */
const modernBackend = fixtureServerPath('modern-server.mjs');

const Loose = z.looseObject({});
type Kind = 'sdk1' | 'sdk2-legacy' | 'sdk2-auto' | 'sdk2-2026';

interface EraClient {
  era: 'legacy' | 'modern';
  protocolVersion: string | undefined;
  stderr: StderrCollector;
  request(
    method: string,
    params: Record<string, unknown>,
    options?: { onprogress?: (progress: { progress: number }) => void; signal?: AbortSignal },
  ): Promise<Record<string, unknown>>;
  /** The elicitation requests this client answered (every client here accepts with a name and a check). */
  asked: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/** What every client of this file answers to a form elicitation (server-everything's form needs no more). */
const elicitationAnswer = { action: 'accept' as const, content: { name: 'Ada', check: true } };
const capabilities = { elicitation: { form: {} } };

let directory: string;
let configPath: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-eras-'));
  configPath = join(directory, 'config.json');
  await writeFile(
    configPath,
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [everythingEntry] },
        modern: { command: process.execPath, args: [modernBackend] },
      },
    }),
  );
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function serverCommand() {
  return {
    command: process.execPath,
    args: [cli, '--config', configPath],
    env: { PATH: process.env.PATH ?? '', HOME: directory, SEARCH_MCP_WATCH: '0' },
  };
}

async function connect(kind: Kind): Promise<EraClient> {
  const target = serverCommand();
  if (kind === 'sdk1') {
    const transport = new Sdk1StdioTransport({ ...target, stderr: 'pipe' });
    const stderr = collectStderr(transport.stderr);
    let answeredVersion: string | undefined;
    const client = new Sdk1Client({ name: 'era-matrix-sdk1', version: '1.0.0' }, { capabilities });
    const asked: Array<Record<string, unknown>> = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return elicitationAnswer;
    });
    const start = transport.start.bind(transport);
    transport.start = async () => {
      const deliver = transport.onmessage;
      transport.onmessage = (message) => {
        if (answeredVersion === undefined && 'result' in message && isRecord(message.result)) {
          const version = message.result.protocolVersion;
          if (typeof version === 'string') answeredVersion = version;
        }
        deliver?.(message);
      };
      await start();
    };
    await client.connect(transport, { timeout: deadlineMs });
    return {
      era: 'legacy',
      protocolVersion: answeredVersion,
      stderr,
      asked,
      request: async (method, params, options = {}) =>
        (await client.request({ method, params } as never, Loose, { timeout: deadlineMs, ...options })) as Record<
          string,
          unknown
        >,
      close: () => client.close(),
    };
  }
  const transport = new Sdk2StdioTransport({ ...target, stderr: 'pipe' });
  const stderr = collectStderr(transport.stderr);
  const mode = kind === 'sdk2-legacy' ? 'legacy' : kind === 'sdk2-auto' ? 'auto' : { pin: '2026-07-28' };
  const client = new Sdk2Client(
    { name: `era-matrix-${kind}`, version: '2.0.0' },
    { capabilities, versionNegotiation: { mode } },
  );
  // One handler for both eras: a 2025 connection is asked by a request, a 2026 one inside an input_required result.
  const asked: Array<Record<string, unknown>> = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params);
    return elicitationAnswer;
  });
  await client.connect(transport, { timeout: deadlineMs });
  const era = client.getProtocolEra();
  if (era === undefined) throw new Error(`the ${kind} client reports no era`);
  return {
    era,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    stderr,
    asked,
    // A loose result schema: the hop must be the wire, not the client's cache or its own result checks.
    request: async (method, params, options = {}) =>
      (await client.request({ method, params } as never, Loose, { timeout: deadlineMs, ...options })) as Record<
        string,
        unknown
      >,
    close: () => client.close(),
  };
}

const expectations: Array<{ kind: Kind; era: 'legacy' | 'modern'; version: string }> = [
  { kind: 'sdk1', era: 'legacy', version: '2025-11-25' },
  { kind: 'sdk2-legacy', era: 'legacy', version: '2025-11-25' },
  { kind: 'sdk2-auto', era: 'modern', version: '2026-07-28' },
  { kind: 'sdk2-2026', era: 'modern', version: '2026-07-28' },
];

function textOf(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as Array<{ text?: unknown }>) : [];
  return content.map((block) => (typeof block.text === 'string' ? block.text : '')).join('');
}

describe.each(expectations)(
  '$kind client ↔ search-mcp (stdio) ↔ server-everything (2025) and a 2026-only backend',
  ({ kind, era, version }) => {
    let client: EraClient;

    beforeAll(async () => {
      client = await connect(kind);
    }, 60_000);

    afterAll(async () => {
      await client?.close();
    });

    it(`negotiates ${version} (${era}) and search-mcp reports the same`, async () => {
      expect(client.era).toBe(era);
      expect(client.protocolVersion).toBe(version);
      // A 2025 client is named at `initialized`; a 2026 one by its first request's envelope (the 2.x client's stdio
      // probe runs in a sibling process, so this process may not have seen a request yet).
      await client.request('tools/list', {});
      const stderr = await client.stderr.waitFor((text) => text.includes('client connected'), deadlineMs);
      const line = stderr.split('\n').find((entry) => entry.includes('client connected')) ?? '';
      expect(line).toContain(`"era":"${era}"`);
      expect(line).toContain(`"protocolVersion":"${version}"`);
    });

    it('lists the meta-tools (2026: with cache fields), discovers and executes a backend tool, calls one directly', async () => {
      const listed = await client.request('tools/list', {});
      expect((listed.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual([
        'tool_discovery',
        'tool_execute',
      ]);
      if (era === 'modern') expect(listed).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
      else expect(listed.ttlMs).toBeUndefined();

      const found = await client.request('tools/call', {
        name: 'tool_discovery',
        arguments: { query: 'echo a message' },
      });
      expect(JSON.stringify(found.structuredContent)).toContain('everything:echo');
      const executed = await client.request('tools/call', {
        name: 'tool_execute',
        arguments: { toolKey: 'everything:echo', arguments: { message: `via ${kind}` } },
      });
      expect(textOf(executed)).toBe(`Echo: via ${kind}`);
      const direct = await client.request('tools/call', { name: 'everything__echo', arguments: { message: 'direct' } });
      expect(textOf(direct)).toBe('Echo: direct');
    });

    it('reads a resource, gets a prompt and completes an argument from the backend', async () => {
      const read = await client.request('resources/read', { uri: 'demo://resource/static/document/architecture.md' });
      expect((read.contents as Array<{ uri: string }>)[0]?.uri).toBe('demo://resource/static/document/architecture.md');
      if (era === 'modern') expect(read).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
      const prompt = await client.request('prompts/get', {
        name: 'everything__args-prompt',
        arguments: { city: 'Tokyo' },
      });
      expect(JSON.stringify(prompt.messages)).toContain('Tokyo');
      const completed = await client.request('completion/complete', {
        ref: { type: 'ref/prompt', name: 'everything__completable-prompt' },
        argument: { name: 'department', value: 'E' },
      });
      expect((completed.completion as { values: string[] }).values).toEqual(['Engineering']);
    });

    it('reaches a backend that speaks only 2026-07-28: a tool, its resource and its prompt', async () => {
      // The backend connects after a refused 2025 attempt; wait (bounded) until its tool answers.
      const answered = await eventually(async () => {
        const result = await client.request('tools/call', { name: 'modern__era', arguments: {} });
        return result.isError ? undefined : result;
      }, 'the 2026-only backend answers');
      expect(textOf(answered)).toBe('modern');
      const read = await client.request('resources/read', { uri: 'modern://greeting' });
      expect((read.contents as Array<{ text?: string }>)[0]?.text).toBe('hello from 2026');
      const prompt = await client.request('prompts/get', { name: 'modern__greet', arguments: { name: 'Ada' } });
      expect(JSON.stringify(prompt.messages)).toContain('Ada');
    });

    it("answers server-everything's elicitation during a call in its own era, and the answer reaches it", async () => {
      const result = await client.request('tools/call', {
        name: 'everything__trigger-elicitation-request',
        arguments: {},
      });
      expect(result.isError).toBeUndefined();
      expect(textOf(result)).toContain('- Name: Ada');
      expect(textOf(result)).toContain('- Agreed to terms: true');
      expect(client.asked).toEqual([
        expect.objectContaining({ message: 'Please provide inputs for the following fields:' }),
      ]);
    });

    it('forwards progress, and a cancelled call stops without breaking the connection', async () => {
      const progress: number[] = [];
      await client.request(
        'tools/call',
        {
          name: 'everything__trigger-long-running-operation',
          arguments: { duration: 0.6, steps: 3 },
          _meta: { progressToken: 'p1' },
        },
        { onprogress: (update) => progress.push(update.progress) },
      );
      // A client may drop the last notification it reads in one chunk with the response (typescript-sdk#2580).
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(progress.slice(0, 2)).toEqual([1, 2]);

      const controller = new AbortController();
      let seen = 0;
      const running = client.request(
        'tools/call',
        { name: 'everything__trigger-long-running-operation', arguments: { duration: 30, steps: 60 } },
        {
          signal: controller.signal,
          onprogress: () => {
            seen += 1;
            if (seen === 2) controller.abort(new Error('cancelled by the test'));
          },
        },
      );
      await expect(running).rejects.toThrow('cancelled by the test');
      const after = await client.request('tools/call', { name: 'everything__echo', arguments: { message: 'after' } });
      expect(textOf(after)).toBe('Echo: after');
    });
  },
);

describe('search-mcp doctor negotiates each backend to the newest revision both sides speak', () => {
  it('a backend of both eras at 2026-07-28 (modern) under auto, server-everything at 2025-11-25 (legacy)', async () => {
    const negotiated = join(directory, 'negotiation.json');
    await writeFile(
      negotiated,
      JSON.stringify({
        mcpServers: {
          both: { command: process.execPath, args: [modernBackend, '--both'] },
          everything: { command: process.execPath, args: [everythingEntry] },
        },
      }),
    );
    // `doctor --json` carries the manager's status() per server; the text form of the same fields is doctor's own test.
    const json = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [cli, 'doctor', '--json', '--config', negotiated],
        { timeout: 90_000, env: { PATH: process.env.PATH ?? '', HOME: directory } },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
      );
    });
    const report = JSON.parse(json) as {
      servers: Array<{ id: string; protocolVersion?: string; protocolEra?: string }>;
    };
    expect(
      report.servers.map(({ id, protocolVersion, protocolEra }) => ({ id, protocolVersion, protocolEra })),
    ).toEqual([
      { id: 'both', protocolVersion: '2026-07-28', protocolEra: 'modern' },
      { id: 'everything', protocolVersion: '2025-11-25', protocolEra: 'legacy' },
    ]);
  }, 120_000);
});

describe('a bare peer whose first message is a 2026-07-28 request (no handshake)', () => {
  it('is answered at once, and server/discover names the aggregate', async () => {
    const target = serverCommand();
    const peer = startRawStdioPeer(target);
    try {
      const meta = modernRequestMeta('2026-07-28');
      const listed = await peer.request('tools/list', { _meta: meta }, deadlineMs);
      expect(listed.result).toMatchObject({ resultType: 'complete', cacheScope: 'public' });
      // The first request is also what starts the backends (they are told this client's capabilities): a call to
      // server-everything while it is still starting waits for it (at most the discovery wait), then runs.
      const called = await peer.request(
        'tools/call',
        { name: 'everything__echo', arguments: { message: 'stateless' }, _meta: meta },
        deadlineMs,
      );
      expect(called.error).toBeUndefined();
      expect(JSON.stringify(called.result)).toContain('Echo: stateless');
      const discovered = await peer.request('server/discover', { _meta: meta }, deadlineMs);
      expect(discovered.result).toMatchObject({
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: { listChanged: true }, prompts: {}, resources: {}, completions: {} },
      });
      expect(String(discovered.result?.instructions)).toContain('tool_discovery');
      const initialize = await peer.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'late', version: '1' },
      });
      expect(initialize.error?.code).toBe(-32022);
      expect(peer.noise).toEqual([]);
    } finally {
      await peer.close(deadlineMs);
    }
  });
});
