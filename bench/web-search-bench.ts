/**
 * Web search and LLM ranking benchmark (packages/openai, apps/web-search-server).
 *
 *   npx tsx bench/web-search-bench.ts [--calls N]     (after building packages/openai and apps/web-search-server)
 *
 * 1. Overhead of the web search server per call. An OpenAI-compatible fake on 127.0.0.1 answers at once (zero
 *    latency: the creation returns `queued`, the first poll `completed`). Three paths do the same two HTTP requests
 *    (`POST /v1/responses`, `GET /v1/responses/{id}`), interleaved, N times each:
 *    - direct: the `openai` SDK client alone (the floor of any implementation);
 *    - service: `createWebSearchService` in process (citations read, results built);
 *    - server: `tools/call chatgpt_o3_search` through the built `search-mcp-web-search` binary over stdio, from a
 *      real MCP SDK client (what a user's client sees).
 *    Overhead = server − direct, per iteration (paired), p50/p95. A real o3 search takes 30 s to minutes, so this is
 *    the part of a call that is ours.
 * 2. Prompt size of the LLM ranking strategy per search: `LlmSearchProvider` over the 237 tools of the 22 recorded
 *    real servers (fixtures/real-servers), for each query of bench/queries/real-servers.json, with the default 20
 *    candidates (and 10, 50). The request the fake received is counted: the messages' text with o200k_base (the
 *    tokenizer of o3, o4-mini, gpt-4.1 and gpt-4o) when `tiktoken` resolves, plus OpenAI's documented framing of
 *    3 tokens per message and 3 for the reply; the response schema as its JSON text (how OpenAI renders a schema
 *    into the prompt is not published: an approximation, stated as such). Claude tokens too, when
 *    `@anthropic-ai/tokenizer` resolves (for comparison with context-bench).
 *
 * Writes bench/results/web-search.json (every number) and bench/results/web-search.md; prints the markdown.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createLlmSearchProvider, createOpenAiClient, createWebSearchService } from '@search-mcp/openai';
import { startFakeOpenAiServer } from '@search-mcp/test-kit';
import { loadRealServerTools } from '@search-mcp/test-kit/real-servers';
import {
  formatMs,
  leftoverProcesses,
  loadAverage,
  machineInfo,
  machineSummary,
  percentile,
  processTreeIds,
  progressLog,
  round,
  waitForExit,
  writeResults,
} from './src/bench-support.js';

// ---------------------------------------------------------------------------------------------------------------
// Settings

const benchDirectory = dirname(fileURLToPath(import.meta.url));
const rootDirectory = join(benchDirectory, '..');
const cliPath = join(rootDirectory, 'apps', 'web-search-server', 'dist', 'cli.js');
const callsArgument = process.argv.indexOf('--calls');
const calls = callsArgument > 0 ? Number(process.argv[callsArgument + 1]) : 300;
const warmup = 30;
const candidateCounts = [10, 20, 50] as const;
const defaultCandidates = 20;
const maxResults = 10;
const apiKey = 'sk-bench-0000000000000000';

const log = progressLog('web-search-bench');

// ---------------------------------------------------------------------------------------------------------------
// Token counting

interface Encoder {
  encode(text: string, allowedSpecial?: 'all'): Uint32Array;
}

/** Resolves a package from bench/, else through apps/stdio-server (which depends on @anthropic-ai/tokenizer). */
function resolveFromBench(name: string): NodeJS.Require | undefined {
  for (const base of [
    join(benchDirectory, 'package.json'),
    join(rootDirectory, 'apps', 'stdio-server', 'package.json'),
  ]) {
    const require = createRequire(base);
    try {
      require.resolve(name);
      return require;
    } catch {}
  }
  return undefined;
}

function loadCounters(): { openAi?: Encoder; openAiSource?: string; claude?: Encoder } {
  const counters: { openAi?: Encoder; openAiSource?: string; claude?: Encoder } = {};
  const tokenizerRequire = resolveFromBench('@anthropic-ai/tokenizer');
  if (tokenizerRequire) {
    const tokenizer = tokenizerRequire('@anthropic-ai/tokenizer') as { getTokenizer(): Encoder };
    counters.claude = tokenizer.getTokenizer();
  }
  // tiktoken ships the o200k_base ranks; it is a dependency of @anthropic-ai/tokenizer.
  const tiktokenRequire =
    resolveFromBench('tiktoken') ??
    (tokenizerRequire ? createRequire(tokenizerRequire.resolve('@anthropic-ai/tokenizer')) : undefined);
  try {
    const tiktoken = tiktokenRequire?.('tiktoken') as { get_encoding(name: string): Encoder } | undefined;
    if (tiktoken) {
      counters.openAi = tiktoken.get_encoding('o200k_base');
      counters.openAiSource = 'tiktoken o200k_base';
    }
  } catch {}
  return counters;
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers

interface Distribution {
  count: number;
  min: number;
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

function distribution(values: readonly number[], digits = 3): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    count: sorted.length,
    min: round(sorted[0] ?? Number.NaN, digits),
    p50: round(percentile(sorted, 50), digits),
    p95: round(percentile(sorted, 95), digits),
    max: round(sorted[sorted.length - 1] ?? Number.NaN, digits),
    mean: round(sum / sorted.length, digits),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Overhead per call

async function measureOverhead() {
  const fake = await startFakeOpenAiServer({ apiKey, webSearch: { statuses: ['queued', 'completed'] } });
  const client = createOpenAiClient({ apiKey, baseUrl: fake.baseUrl, maxRetries: 0 });
  const service = createWebSearchService({ client, pollIntervalMs: 0 });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, '--log-level', 'warn'],
    env: { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: fake.baseUrl, WEB_SEARCH_POLL_INTERVAL_MS: '0' },
    stderr: 'pipe',
  });
  const mcp = new Client({ name: 'web-search-bench', version: '1' });
  await mcp.connect(transport);
  const serverPid = transport.pid as number;
  await mcp.listTools();

  const direct = async () => {
    const created = await client.responses.create({
      model: 'o3',
      input: 'bench',
      tools: [{ type: 'web_search' }],
      background: true,
      store: true,
    });
    await client.responses.retrieve(created.id);
  };
  const inProcess = async () => {
    const outcome = await service.search({ query: 'bench' });
    if (outcome.results.length !== 2) throw new Error('the service returned an unexpected answer');
  };
  const server = async () => {
    const result = await mcp.callTool({ name: 'chatgpt_o3_search', arguments: { query: 'bench' } });
    if (result.isError) throw new Error(`the server answered an error: ${JSON.stringify(result.content)}`);
  };
  const paths = { direct, service: inProcess, server } as const;
  const times: Record<keyof typeof paths, number[]> = { direct: [], service: [], server: [] };
  const order = Object.keys(paths) as Array<keyof typeof paths>;

  log(`overhead: ${warmup} warm-up and ${calls} measured iterations of direct, service and server`);
  for (let iteration = 0; iteration < warmup + calls; iteration += 1) {
    // Rotate the order so that no path always runs right after another one.
    for (let index = 0; index < order.length; index += 1) {
      const name = order[(iteration + index) % order.length] as keyof typeof paths;
      const started = performance.now();
      await paths[name]();
      if (iteration >= warmup) times[name].push(performance.now() - started);
    }
  }
  const requestsPerCall = fake.requests.length / ((warmup + calls) * order.length);
  const paired = times.server.map((value, index) => value - (times.direct[index] as number));
  const servicePaired = times.service.map((value, index) => value - (times.direct[index] as number));

  const treeIds = processTreeIds(serverPid);
  await mcp.close();
  await waitForExit(treeIds, 40, 100);
  await service.close();
  await fake.close();
  return {
    calls,
    warmup,
    httpRequestsPerCall: round(requestsPerCall, 2),
    ms: {
      direct: distribution(times.direct),
      service: distribution(times.service),
      server: distribution(times.server),
    },
    overheadMs: { serverMinusDirect: distribution(paired), serviceMinusDirect: distribution(servicePaired) },
    serverPids: treeIds,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Prompt size of the LLM ranking

async function measurePromptSize() {
  const counters = loadCounters();
  const tools = loadRealServerTools();
  const { queries } = JSON.parse(readFileSync(join(benchDirectory, 'queries', 'real-servers.json'), 'utf8')) as {
    queries: Array<{ id: string; lang: string; query: string }>;
  };
  const fake = await startFakeOpenAiServer({
    apiKey,
    // Any valid answer: the prompt does not depend on it.
    chat: () => ({ content: '{"tools":[]}' }),
  });
  const perCandidates: Record<string, unknown> = {};
  for (const candidates of candidateCounts) {
    const provider = createLlmSearchProvider(
      { model: 'gpt-4.1-mini', baseUrl: fake.baseUrl, apiKey, timeoutMs: 10_000, candidates },
      { onAnswer: (answer) => answer.fallbackReason && log(`fallback: ${answer.fallbackReason}`) },
    );
    const rows: Array<{
      id: string;
      lang: string;
      chars: number;
      openAi?: number;
      claude?: number;
      schemaOpenAi?: number;
      answerOpenAi?: number;
    }> = [];
    const withoutRequest: string[] = [];
    for (const query of queries) {
      fake.requests.length = 0;
      await provider.search({ queries: [query.query], tools, maxResults });
      const body = fake.requestsOf('chat-completion')[0]?.body as
        | { messages: Array<{ content: string }>; response_format: unknown }
        | undefined;
      if (!body) {
        // BM25 found no candidate at all: nothing is sent, nothing is paid.
        withoutRequest.push(query.id);
        continue;
      }
      const text = body.messages.map((message) => message.content).join('\n');
      const schema = JSON.stringify(body.response_format);
      const framing = 3 * body.messages.length + 3;
      const row: (typeof rows)[number] = { id: query.id, lang: query.lang, chars: text.length + schema.length };
      if (counters.openAi) {
        const messagesTokens = body.messages.reduce(
          (total, message) => total + (counters.openAi as Encoder).encode(message.content, 'all').length,
          0,
        );
        row.schemaOpenAi = counters.openAi.encode(schema, 'all').length;
        row.openAi = messagesTokens + framing + row.schemaOpenAi;
      }
      if (counters.claude) row.claude = counters.claude.encode(`${text}\n${schema}`.normalize('NFKC'), 'all').length;
      if (counters.openAi) {
        // Output: what a 5-tool answer in the requested format costs (synthetic: the first 5 offered keys, each
        // with an explanation of 80 characters of its description). The model's real answers vary around this.
        const offered = (
          body.response_format as {
            json_schema: {
              schema: { properties: { tools: { items: { properties: { toolKey: { enum: string[] } } } } } };
            };
          }
        ).json_schema.schema.properties.tools.items.properties.toolKey.enum.slice(0, 5);
        const answer = JSON.stringify({
          tools: offered.map((key, index) => ({
            toolKey: key,
            relevance: round(1 - index * 0.15, 2),
            explanation: (tools.find((tool) => tool.toolKey === key)?.description ?? '').slice(0, 80),
          })),
        });
        row.answerOpenAi = counters.openAi.encode(answer, 'all').length;
      }
      rows.push(row);
    }
    const pick = (field: 'chars' | 'openAi' | 'claude' | 'schemaOpenAi' | 'answerOpenAi', lang?: string) => {
      const values = rows
        .filter((row) => !lang || row.lang === lang)
        .map((row) => row[field])
        .filter((value): value is number => typeof value === 'number');
      return values.length > 0 ? distribution(values, 1) : undefined;
    };
    perCandidates[String(candidates)] = {
      queries: rows.length,
      withoutRequest,
      chars: pick('chars'),
      openAiTokens: pick('openAi'),
      openAiTokensEnglish: pick('openAi', 'en'),
      openAiTokensJapanese: pick('openAi', 'ja'),
      schemaOpenAiTokens: pick('schemaOpenAi'),
      answerOpenAiTokens: pick('answerOpenAi'),
      claudeTokens: pick('claude'),
      rows,
    };
    log(`prompt size: ${rows.length} queries with ${candidates} candidates`);
  }
  await fake.close();
  return {
    tools: tools.length,
    servers: new Set(tools.map((tool) => tool.serverName)).size,
    maxResults,
    defaultCandidates,
    counting: {
      openAi: counters.openAiSource
        ? `${counters.openAiSource}: message text exactly, + 3 per message + 3 (OpenAI's documented chat framing), + the response_format JSON text (approximation: OpenAI does not publish how the schema is rendered)`
        : 'not available (tiktoken did not resolve)',
      claude: counters.claude ? '@anthropic-ai/tokenizer over messages + schema text' : 'not available',
      approximation: counters.openAiSource ? undefined : 'chars / 4 (rough English average)',
    },
    perCandidates,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Report

type Overhead = Awaited<ReturnType<typeof measureOverhead>>;
type PromptSize = Awaited<ReturnType<typeof measurePromptSize>>;

function markdown(machine: ReturnType<typeof machineInfo>, overhead: Overhead, prompt: PromptSize): string {
  const lines = [
    '# Web search and LLM ranking benchmark',
    '',
    `${machineSummary(machine)} · load ${machine.loadAverageAtStart.join(' / ')} → ${machine.loadAverageAtEnd?.join(' / ')}`,
    '',
    `## Overhead per web search call (fake OpenAI with zero latency, ${overhead.calls} calls per path, interleaved)`,
    '',
    `Each call makes ${overhead.httpRequestsPerCall} HTTP requests to the fake (create, one poll).`,
    '',
    '| Path | p50 | p95 | mean |',
    '| --- | ---: | ---: | ---: |',
    ...(['direct', 'service', 'server'] as const).map((name) => {
      const value = overhead.ms[name];
      const label = {
        direct: 'openai SDK alone (floor)',
        service: 'createWebSearchService in process',
        server: 'search-mcp-web-search over stdio (MCP client)',
      }[name];
      return `| ${label} | ${formatMs(value.p50)} | ${formatMs(value.p95)} | ${formatMs(value.mean)} |`;
    }),
    `| **overhead: server − direct (paired)** | **${formatMs(overhead.overheadMs.serverMinusDirect.p50)}** | **${formatMs(overhead.overheadMs.serverMinusDirect.p95)}** | ${formatMs(overhead.overheadMs.serverMinusDirect.mean)} |`,
    `| overhead: service − direct (paired) | ${formatMs(overhead.overheadMs.serviceMinusDirect.p50)} | ${formatMs(overhead.overheadMs.serviceMinusDirect.p95)} | ${formatMs(overhead.overheadMs.serviceMinusDirect.mean)} |`,
    '',
    `## LLM ranking: prompt size per search (${prompt.tools} tools of ${prompt.servers} real servers, ${(prompt.perCandidates[String(defaultCandidates)] as { queries: number }).queries} queries, maxResults ${prompt.maxResults})`,
    '',
    `Counted with ${prompt.counting.openAi}.`,
    '',
    '| candidates | tokens p50 | tokens p95 | English p50 | Japanese p50 | of which schema p50 | Claude tokens p50 | characters p50 |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...candidateCounts.map((candidates) => {
      const entry = prompt.perCandidates[String(candidates)] as {
        openAiTokens?: Distribution;
        openAiTokensEnglish?: Distribution;
        openAiTokensJapanese?: Distribution;
        schemaOpenAiTokens?: Distribution;
        claudeTokens?: Distribution;
        chars?: Distribution;
      };
      const cell = (value: Distribution | undefined, field: 'p50' | 'p95' = 'p50') =>
        value ? String(Math.round(value[field])) : 'n/a';
      const label = candidates === defaultCandidates ? `**${candidates}** (default)` : String(candidates);
      return `| ${label} | ${cell(entry.openAiTokens)} | ${cell(entry.openAiTokens, 'p95')} | ${cell(entry.openAiTokensEnglish)} | ${cell(entry.openAiTokensJapanese)} | ${cell(entry.schemaOpenAiTokens)} | ${cell(entry.claudeTokens)} | ${cell(entry.chars)} |`;
    }),
    '',
    `Output: a 5-tool answer in the requested format is about ${answerTokens(prompt)} tokens (o200k_base, p50 over the queries; synthetic answer: the first 5 offered keys with 80-character explanations).`,
    '',
    `Queries for which BM25 found no candidate send no request: ${(prompt.perCandidates[String(defaultCandidates)] as { withoutRequest: string[] }).withoutRequest.join(', ') || 'none'}.`,
    '',
  ];
  return `${lines.join('\n')}\n`;
}

function answerTokens(prompt: PromptSize): string {
  const entry = prompt.perCandidates[String(defaultCandidates)] as { answerOpenAiTokens?: Distribution };
  return entry.answerOpenAiTokens ? String(Math.round(entry.answerOpenAiTokens.p50)) : 'n/a';
}

async function main(): Promise<void> {
  if (!Number.isInteger(calls) || calls < 10) throw new Error('--calls must be a whole number of 10 or more');
  const machine = machineInfo();
  const overhead = await measureOverhead();
  const prompt = await measurePromptSize();
  machine.loadAverageAtEnd = loadAverage();
  const leftovers = await leftoverProcesses(new Set(overhead.serverPids), rootDirectory, {
    webSearchServer: 'web-search-server/dist/cli.js',
  });
  if (leftovers.aliveSeenPids.length > 0) throw new Error(`processes left: ${leftovers.aliveSeenPids.join(', ')}`);
  const report = markdown(machine, overhead, prompt);
  const path = await writeResults('web-search', { machine, overhead, prompt, leftovers }, report);
  log(`wrote ${path}`);
  process.stdout.write(report);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
