/**
 * Benchmark of the rate limiter (`security.rateLimits`, docs/trust.md "Rate limits"), in process.
 *
 *   npx -y pnpm@10.34.9 bench:rate-limit
 *
 * Calls an in-process tool (a `ToolRegistry`, so no backend cost hides the limiter's) through `ToolCatalog.execute`,
 * the path of REST and MCP calls alike, and measures calls per second:
 *   (a) no limits (the baseline);
 *   (b) all four kinds of limits apply (per token, per project, per tool, per server), rates so high nothing is
 *       refused: each call takes four buckets;
 *   (c) every call refused (burst 1): what a flood costs;
 *   (d) 100,000 distinct callers in turn, over the 10,000 buckets kept: every call makes a bucket and evicts one.
 * The limiter's own cost per call is (b) − (a). Then the limiter alone (`RateLimiter.take`, no catalog):
 *   (e) four buckets a call, none refusing; (f) every call refused.
 *
 * Writes bench/results/rate-limit.json and .md and prints the markdown to stdout. Progress goes to stderr.
 * Env: RATE_LIMIT_BENCH_CALLS (calls per round, default 50,000), RATE_LIMIT_BENCH_ROUNDS (default 3).
 */
import { performance } from 'node:perf_hooks';
import { type Caller, RateLimiter, ToolCatalog, ToolRegistry } from '@search-mcp/catalog';
import { RateLimitError, type SearchMcpConfigInput } from '@search-mcp/shared';
import {
  loadAverage,
  machineInfo,
  machineSummary,
  median,
  progressLog,
  round,
  writeResults,
} from './src/bench-support.js';

const log = progressLog('rate-limit');
const callsPerRound = Number(process.env.RATE_LIMIT_BENCH_CALLS ?? 50_000);
const rounds = Number(process.env.RATE_LIMIT_BENCH_ROUNDS ?? 3);
const distinctCallers = 100_000;
const unlimited = { requestsPerMinute: 1_000_000_000, burst: 1_000_000_000 };

interface CaseResult {
  name: string;
  callsPerSecond: number;
  microsecondsPerCall: number;
  refused: number;
  runs: number[];
}

function catalogWith(security: SearchMcpConfigInput['security']): ToolCatalog {
  const registry = new ToolRegistry({ serverId: 'local' });
  registry.register({ name: 'echo', description: 'Echo a message back' }, () => 'ok');
  return new ToolCatalog({ sources: [registry], config: { mcpServers: {}, ...(security ? { security } : {}) } });
}

async function measure(name: string, catalog: ToolCatalog, callerOf: (index: number) => Caller): Promise<CaseResult> {
  const runs: number[] = [];
  let refused = 0;
  // One round to warm up (JIT, the tool list cache), not counted.
  for (let round = -1; round < rounds; round += 1) {
    refused = 0;
    const started = performance.now();
    for (let index = 0; index < callsPerRound; index += 1) {
      try {
        await catalog.execute('local:echo', {}, callerOf(index));
      } catch (error) {
        if (!RateLimitError.isInstance(error)) throw error;
        refused += 1;
      }
    }
    const elapsed = performance.now() - started;
    if (round >= 0) runs.push(Math.round((callsPerRound * 1000) / elapsed));
  }
  const callsPerSecond = median(runs);
  log(`${name}: ${callsPerSecond} calls/s (${refused} of ${callsPerRound} refused in the last round)`);
  return { name, callsPerSecond, microsecondsPerCall: round(1e6 / callsPerSecond, 2), refused, runs };
}

/** `RateLimiter.take` alone, ten times the catalog's calls a round: synchronous, so the loop is the whole cost. */
function measureLimiter(name: string, limiter: RateLimiter, caller: Caller): CaseResult {
  const runs: number[] = [];
  const takes = callsPerRound * 10;
  let refused = 0;
  for (let round = -1; round < rounds; round += 1) {
    refused = 0;
    const started = performance.now();
    for (let index = 0; index < takes; index += 1) {
      try {
        limiter.take(caller, 'local', 'echo');
      } catch (error) {
        if (!RateLimitError.isInstance(error)) throw error;
        refused += 1;
      }
    }
    const elapsed = performance.now() - started;
    if (round >= 0) runs.push(Math.round((takes * 1000) / elapsed));
  }
  const callsPerSecond = median(runs);
  log(`${name}: ${callsPerSecond} takes/s (${refused} of ${takes} refused in the last round)`);
  return { name, callsPerSecond, microsecondsPerCall: round(1e6 / callsPerSecond, 3), refused, runs };
}

async function main(): Promise<void> {
  const machine = machineInfo();
  // Without a project: its calls share the project bucket of calls without one, which still applies in (b).
  const token: Caller = { tokenId: 'oauth:bench', access: { grants: [{}] } };
  const callers = Array.from(
    { length: distinctCallers },
    (_, index): Caller => ({ tokenId: `oauth:user-${index}`, access: { grants: [{}] } }),
  );
  const cases: CaseResult[] = [];
  cases.push(await measure('(a) no limits', catalogWith(undefined), () => token));
  cases.push(
    await measure(
      '(b) four limits, none refusing',
      catalogWith({
        rateLimits: { perToken: unlimited, perProject: unlimited, perTool: unlimited, tools: { 'local:*': unlimited } },
      }),
      () => token,
    ),
  );
  cases.push(
    await measure(
      '(c) every call refused',
      catalogWith({ rateLimits: { perToken: { requestsPerMinute: 1, burst: 1 } } }),
      () => token,
    ),
  );
  cases.push(
    await measure(
      `(d) ${distinctCallers.toLocaleString('en')} callers in turn over 10,000 buckets`,
      catalogWith({ rateLimits: { perToken: unlimited } }),
      (index) => callers[index % distinctCallers] as Caller,
    ),
  );
  cases.push(
    measureLimiter(
      '(e) RateLimiter.take alone, four buckets, none refusing',
      new RateLimiter({
        limits: { perToken: unlimited, perProject: unlimited, perTool: unlimited, tools: { 'local:*': unlimited } },
      }),
      token,
    ),
  );
  cases.push(
    measureLimiter(
      '(f) RateLimiter.take alone, every call refused',
      new RateLimiter({ limits: { perToken: { requestsPerMinute: 1, burst: 1 }, tools: {} } }),
      token,
    ),
  );
  machine.loadAverageAtEnd = loadAverage();
  const [baseline, limited] = cases;
  const limiterMicroseconds = round((limited?.microsecondsPerCall ?? 0) - (baseline?.microsecondsPerCall ?? 0), 2);
  const results = { machine, callsPerRound, rounds, limiterMicrosecondsPerCall: limiterMicroseconds, cases };
  const text = `# Rate limits (bench/rate-limit-bench.ts)

${machineSummary(machine)} · load ${machine.loadAverageAtStart.join(' ')} → ${machine.loadAverageAtEnd.join(' ')}

\`ToolCatalog.execute\` of an in-process tool ((a)–(d), ${callsPerRound.toLocaleString('en')} calls a round) and \`RateLimiter.take\` alone ((e), (f), ten times as many), median of ${rounds} rounds. The machine is shared: the load is part of the figures.

| case | calls/s | µs per call | refused (last round) |
| --- | --- | --- | --- |
${cases.map((entry) => `| ${entry.name} | ${entry.callsPerSecond.toLocaleString('en')} | ${entry.microsecondsPerCall} | ${entry.refused.toLocaleString('en')} |`).join('\n')}

The limiter's own cost with four buckets per call: **${limiterMicroseconds} µs per call** ((b) − (a)).
`;
  const path = await writeResults('rate-limit', results, text);
  log(`wrote ${path}`);
  process.stdout.write(text);
}

await main();
