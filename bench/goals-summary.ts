/**
 * One table of every speed and size goal the benchmarks measure, read from their latest `bench/results/*.json`
 * (issue 25's speed debts and issue 26's first session). Run last by `pnpm bench`, or alone after any benchmark:
 *
 *   npx -y pnpm@10.34.9 bench:goals
 *
 * Each row names the benchmark that measured it, when, and the machine's load then: the machine is shared, so a
 * figure measured under a high load (the column) says more about the load than about the code. A benchmark that has
 * not been run yet is listed with the command that runs it. The test suite's time is not a benchmark: `.ci/run`
 * prints it (its `timing:` line) for the README's test command.
 *
 * Writes bench/results/goals.json and .md and prints the markdown to stdout.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatMs, writeResults } from './src/bench-support.js';

const resultsDirectory = fileURLToPath(new URL('./results/', import.meta.url));

interface Measured {
  machine?: { date?: string; loadAverageAtStart?: number[] };
}

/** One goal: what it is, and how to read value, goal and verdict from its benchmark's JSON. */
interface GoalRow {
  issue: number;
  figure: string;
  bench: string;
  // biome-ignore lint/suspicious/noExplicitAny: each benchmark's own JSON, read field by field (a field it lacks makes the row "–")
  read(result: any): { value: string; goal: string; met: boolean } | undefined;
}

const ratio = (value: number) => `${value.toFixed(2)}×`;

const rows: GoalRow[] = [
  {
    issue: 25,
    figure: 'forwarding (server-everything echo, 1.x client): `tool_execute` / byte relay, median',
    bench: 'forwarding-overhead',
    read: (result) => {
      const echo = result.echo;
      if (!echo) return undefined;
      return {
        value: ratio(echo.ratioToRelay.toolExecute),
        goal: `≤ ${echo.goalRatio}×`,
        met: echo.ratioToRelay.toolExecute <= echo.goalRatio,
      };
    },
  },
  {
    issue: 25,
    figure: 'forwarding: direct `tools/call` / byte relay, median',
    bench: 'forwarding-overhead',
    read: (result) => {
      const echo = result.echo;
      if (!echo) return undefined;
      return {
        value: ratio(echo.ratioToRelay.directCall),
        goal: `≤ ${echo.goalRatio}×`,
        met: echo.ratioToRelay.directCall <= echo.goalRatio,
      };
    },
  },
  {
    issue: 25,
    figure: 'spawn → first `tools/list` (backend needs 10 s), median',
    bench: 'forwarding-overhead',
    read: (result) => {
      const startup = result.startup;
      if (!startup) return undefined;
      return {
        value: `${formatMs(startup.firstToolsListMedianMs)} (a bare server-everything: ${formatMs(startup.referenceToolsListMedianMs)})`,
        goal: `≤ ${startup.firstAnswerGoalMs} ms`,
        met: startup.firstToolsListMedianMs <= startup.firstAnswerGoalMs,
      };
    },
  },
  {
    issue: 25,
    figure: '`search-mcp close` with a backend still starting, median',
    bench: 'forwarding-overhead',
    read: (result) => {
      const startup = result.startup;
      if (!startup) return undefined;
      return {
        value: formatMs(startup.closeMedianMs),
        goal: `≤ ${startup.closeGoalMs} ms`,
        met: startup.closeMedianMs <= startup.closeGoalMs,
      };
    },
  },
  {
    issue: 25,
    figure: '`Bm25SearchProvider` index build, 50,000 tools',
    bench: 'index-build',
    read: (result) => {
      const summary = result.summaries?.[0];
      if (!summary) return undefined;
      return { value: formatMs(summary.buildMs), goal: `≤ ${result.buildGoalMs} ms`, met: result.buildGoalMet };
    },
  },
  {
    issue: 25,
    figure: 'search with a fresh array of the same 50,000 tools, p50',
    bench: 'index-build',
    read: (result) => {
      const summary = result.summaries?.[0];
      const p50 = summary?.freshArrayP50;
      if (typeof p50 !== 'number') return undefined;
      return { value: formatMs(p50), goal: `≤ ${result.freshArrayGoalMs} ms`, met: result.freshGoalMet };
    },
  },
  ...[0, 1, 2].map(
    (index): GoalRow => ({
      issue: 25,
      figure: `HTTP \`/mcp\` 2026-07-28 / 2025-06-18, req/s (server in a child process), row ${index + 1}`,
      bench: 'http',
      read: (result) => {
        const pair = result.throughput?.child?.eraRatios?.[index];
        if (!pair) return undefined;
        return {
          value: `${ratio(pair.requestsPerSecond)} (${pair.modern}; server CPU per request ${ratio(pair.serverCpuPerRequest)})`,
          goal: '≥ 1×',
          met: pair.requestsPerSecond >= 1,
        };
      },
    }),
  ),
  {
    issue: 26,
    figure: '`search-mcp call` beside a broken entry, spawn → answer / the server’s own start',
    bench: 'one-shot-call',
    read: (result) => ({
      value:
        `${ratio(result.ratio)} (${formatMs(result.callMs.median)} / ${formatMs(result.everythingStartMs.median)})` +
        (result.callExitMs ? `; to its exit ${ratio(result.exitRatio)} (${formatMs(result.callExitMs.median)})` : ''),
      goal: `≤ ${result.goalRatio}×`,
      met: result.goalMet,
    }),
  },
  {
    issue: 26,
    figure: 'first `tool_execute` of a first session succeeds (fresh HOME, cold npx cache)',
    bench: 'first-session',
    read: (result) => {
      const figures = result.figures;
      if (!figures) return undefined;
      return {
        value: `${figures.firstExecute.succeeded}/${figures.runs}`,
        goal: `${figures.runs}/${figures.runs}`,
        met: figures.firstExecute.succeeded === figures.runs,
      };
    },
  },
  {
    issue: 26,
    figure: 'first `tool_discovery` of a first session finds every server',
    bench: 'first-session',
    read: (result) => {
      const figures = result.figures;
      if (!figures) return undefined;
      return {
        value: `${figures.firstDiscovery.everyServer}/${figures.runs}, max ${formatMs(figures.firstDiscovery.maxMs)}`,
        goal: `${figures.runs}/${figures.runs} within ${formatMs(figures.firstDiscovery.boundMs)}`,
        met:
          figures.firstDiscovery.everyServer === figures.runs &&
          figures.firstDiscovery.maxMs <= figures.firstDiscovery.boundMs,
      };
    },
  },
  {
    issue: 26,
    figure: 'first `tool_discovery` of a second session (kept lists), max',
    bench: 'first-session',
    read: (result) => {
      const second = result.figures?.secondSessionDiscovery;
      if (!second) return undefined;
      return {
        value: `${formatMs(second.maxMs)} (median ${formatMs(second.medianMs)}; ${second.everyServer}/${result.figures.runs} found every server)`,
        goal: `≤ ${formatMs(second.goalMs)}`,
        met: second.maxMs <= second.goalMs && second.everyServer === result.figures.runs,
      };
    },
  },
  {
    issue: 26,
    figure: 'cold build (fresh clone, turbo cache off), wall clock',
    bench: 'install',
    read: (result) =>
      result.build
        ? { value: `${result.build.wallSeconds} s`, goal: '≤ 90 s', met: result.build.wallSeconds <= 90 }
        : undefined,
  },
  {
    issue: 26,
    figure: 'install warnings of a fresh clone',
    bench: 'install',
    read: (result) =>
      result.build
        ? {
            value: String(result.build.installWarnings.length),
            goal: '0',
            met: result.build.installWarnings.length === 0,
          }
        : undefined,
  },
  {
    issue: 26,
    figure: 'README install without the hybrid ranker',
    bench: 'install',
    read: (result) =>
      result.size
        ? {
            value: `${result.size.withoutHybridMb} MB (with it: ${result.size.withHybridMb} MB)`,
            goal: 'embeddings absent',
            met: result.size.hybridPresentWithout === false,
          }
        : undefined,
  },
];

function readResult(bench: string): (Measured & Record<string, unknown>) | undefined {
  const path = join(resultsDirectory, `${bench}.json`);
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as Measured & Record<string, unknown>;
}

const table: Array<Record<string, unknown>> = [];
const lines = [
  '# Speed and size goals',
  '',
  `Read ${new Date().toISOString()} from the latest \`bench/results/*.json\`. The load column is the 1-minute load average`,
  'when that benchmark started (2 cores: above ~2 the figures are slowed by other work). The test suite’s time is',
  "`.ci/run`'s `timing:` line.",
  '',
  '| issue | figure | value | goal | met | benchmark (measured, load) |',
  '| ---: | --- | --- | --- | --- | --- |',
];
for (const row of rows) {
  const result = readResult(row.bench);
  let read: ReturnType<GoalRow['read']>;
  try {
    read = result ? row.read(result) : undefined;
  } catch {
    read = undefined; // a result file of an older format, without this figure
  }
  const when = result?.machine?.date?.slice(0, 16).replace('T', ' ');
  const load = result?.machine?.loadAverageAtStart?.[0];
  const source = result
    ? `\`${row.bench}\` (${when ?? 'undated'}, load ${load ?? '?'})`
    : `not run yet: \`npx -y pnpm@10.34.9 bench:${row.bench}\``;
  table.push({ issue: row.issue, figure: row.figure, bench: row.bench, measured: when, load, ...read });
  lines.push(
    `| ${row.issue} | ${row.figure} | ${read?.value ?? '–'} | ${read?.goal ?? '–'} | ${read ? (read.met ? 'met' : '**not met**') : '–'} | ${source} |`,
  );
}
const markdown = `${lines.join('\n')}\n`;
await writeResults('goals', { rows: table }, markdown);
process.stdout.write(markdown);
