import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureHttpServer, startFixtureHttpServer } from './fixture/fixture-http-server.js';
import { runServerSuite, type SpecVersion, type SuiteRun } from './harness/conformance-cli.js';
import { expectationProblem } from './harness/expectation-check.js';
import { type ExpectedFailures, loadExpectedFailures } from './harness/expected-failures.js';
import { fixtureServerId, writeSearchMcpConfig } from './harness/proxy-config.js';
import { writeResultsSection } from './harness/results-file.js';
import { formatResultsTable } from './harness/results-table.js';
import { readScenarioResults, type ScenarioResult } from './harness/scenario-results.js';
import { type SearchMcpHttp, startSearchMcpHttp } from './harness/search-mcp-http-process.js';
import {
  allScenarios,
  metaModeScenarios,
  serverScenarios,
  specVersions,
  stdioRelayScenarios,
  type TargetScenarios,
} from './harness/server-scenarios.js';
import { type StdioRelay, startStdioRelay } from './relay/stdio-relay.js';

const resultsDirectory = fileURLToPath(new URL('../results/', import.meta.url));

function expectations(file: string): { file: string; list: ExpectedFailures } {
  return { file, list: loadExpectedFailures(new URL(`../${file}`, import.meta.url)) };
}

/** Something the suite runs against: the fixture itself, or Search MCP in front of it. */
interface Target {
  /** Its folder under `results/<revision>/` and its column in the table. */
  id: string;
  describe: string;
  scenarios: TargetScenarios;
  /**
   * The fixture's own baseline, for `direct` only: a scenario the fixture fails, with the reason. Search MCP has no
   * such list: whatever passes directly must pass through it.
   */
  baseline?: { file: string; list: ExpectedFailures };
  /** The reference is the fixture: what it passes, this target must pass too. False for the fixture itself. */
  comparedWithDirect: boolean;
  /** Its MCP endpoint, once started. */
  url?: URL;
}

const targets: Target[] = [
  {
    id: 'direct',
    describe: 'directly against the fixture',
    scenarios: allScenarios,
    baseline: expectations('expectations/direct-baseline.json'),
    comparedWithDirect: false,
  },
  {
    id: 'search-mcp-http',
    describe: 'through search-mcp-http in proxy mode',
    scenarios: allScenarios,
    comparedWithDirect: true,
  },
  {
    id: 'search-mcp-http-meta',
    describe: 'through search-mcp-http in meta mode',
    scenarios: metaModeScenarios,
    comparedWithDirect: true,
  },
  {
    id: 'search-mcp-stdio',
    describe: 'through search-mcp serve (stdio, proxy mode) behind the HTTP relay',
    scenarios: stdioRelayScenarios,
    comparedWithDirect: true,
  },
];

/** The search-mcp-http targets and their modes: one process each, for the whole run. */
const searchMcpHttpModes = [
  ['search-mcp-http', 'proxy'],
  ['search-mcp-http-meta', 'meta'],
] as const;

let fixture: FixtureHttpServer | undefined;
const searchMcpProcesses = new Map<string, SearchMcpHttp>();
let stdioRelay: StdioRelay | undefined;
let configDirectory: string | undefined;
/** Per revision, per target id: the scenarios' results. */
const results = new Map<SpecVersion, Map<string, Map<string, ScenarioResult>>>();
const runs: Array<{ specVersion: SpecVersion; target: string; run: SuiteRun }> = [];
/** Ends a suite run still going when the tests end (a hook that timed out leaves its promise running). */
const stopRuns = new AbortController();

function target(id: string): Target {
  const found = targets.find((entry) => entry.id === id);
  if (!found) throw new Error(`no target ${id}`);
  return found;
}

/**
 * The whole suite runs once, here: the fixture in this process, one search-mcp-http process per mode in front of it
 * for both revisions (never restarted between scenarios), the relay to `search-mcp serve` children (one per 2025
 * session, one for 2026-07-28), and one suite invocation per revision and target, one after the other (the suite's stream checks wait for frames within fixed windows; running them side by side on two cores
 * would make those windows the thing measured).
 *
 * Every invocation is `--suite all`, also for a target that runs only some scenarios: the runner selects one scenario
 * or a whole suite, and one suite run (a few seconds) costs less than a Node 22 start per scenario (about a second
 * each). The results of the scenarios a target does not list are not read. The tests below only read the results.
 */
beforeAll(async () => {
  // Only this file's results: `results/client/` is the client scenarios' (the other test file).
  for (const specVersion of specVersions) {
    await rm(join(resultsDirectory, specVersion), { recursive: true, force: true });
  }
  await mkdir(resultsDirectory, { recursive: true });
  fixture = await startFixtureHttpServer();
  target('direct').url = fixture.url;
  configDirectory = await mkdtemp(join(tmpdir(), 'search-mcp-conformance-'));
  for (const [id, mode] of searchMcpHttpModes) {
    const config = await writeSearchMcpConfig(configDirectory, `${id}.json`, fixture.url, mode);
    const server = await startSearchMcpHttp(config, fixtureServerId);
    searchMcpProcesses.set(id, server);
    target(id).url = server.url;
  }
  const stdioConfig = await writeSearchMcpConfig(configDirectory, 'search-mcp-stdio.json', fixture.url, 'proxy');
  stdioRelay = await startStdioRelay(stdioConfig, fixtureServerId);
  target('search-mcp-stdio').url = stdioRelay.url;
  for (const specVersion of specVersions) {
    const byTarget = new Map<string, Map<string, ScenarioResult>>();
    for (const { id, url } of targets) {
      if (!url) throw new Error(`${id} did not start`);
      const outputDirectory = join(resultsDirectory, specVersion, id);
      runs.push({
        specVersion,
        target: id,
        run: await runServerSuite(url, specVersion, outputDirectory, stopRuns.signal),
      });
      byTarget.set(id, await readScenarioResults(outputDirectory));
    }
    results.set(specVersion, byTarget);
  }
  const tables = specVersions.map((specVersion) =>
    formatResultsTable(
      specVersion,
      serverScenarios[specVersion],
      targets.map(({ id, scenarios, baseline }) => ({
        title: id,
        scenarios,
        ...(baseline ? { expectedFailures: baseline.list } : {}),
        results: targetResults(specVersion, id),
      })),
    ),
  );
  const timings = runs
    .map(({ specVersion, target: id, run }) => `${specVersion} ${id}: ${(run.durationMs / 1000).toFixed(1)} s`)
    .join(', ');
  const children = `search-mcp serve children started: ${stdioRelay?.childrenStarted}, at most ${stdioRelay?.mostRunning} at once`;
  const report = `${tables.join('\n\n')}\n\nSuite runs: ${timings}\n${children}\n`;
  await writeResultsSection(join(resultsDirectory, 'conformance-table.md'), 'Server scenarios', report);
  console.log(report);
});

afterAll(async () => {
  stopRuns.abort();
  for (const server of searchMcpProcesses.values()) await server.close();
  await stdioRelay?.close();
  await fixture?.close();
  if (configDirectory) await rm(configDirectory, { recursive: true, force: true });
});

function targetResults(specVersion: SpecVersion, id: string): Map<string, ScenarioResult> {
  const found = results.get(specVersion)?.get(id);
  if (!found) throw new Error(`the suite did not run for ${specVersion} against ${id}`);
  return found;
}

describe.each(specVersions)('conformance server scenarios, %s', (specVersion) => {
  it.each(targets.map(({ id }) => id))('the suite ran exactly the scenarios listed for this revision (%s)', (id) => {
    // Every invocation is `--suite all`: it writes every scenario, whatever the target runs.
    const listed = [...serverScenarios[specVersion]].sort();
    // The runner's own last words say why a scenario is missing (it crashed, or a suite update renamed one).
    const output = runs.find((entry) => entry.specVersion === specVersion && entry.target === id)?.run.output;
    expect([...targetResults(specVersion, id).keys()].sort(), output?.slice(-2000)).toEqual(listed);
  });

  it.each(targets.map(({ id }) => id))('%s runs or excludes each scenario, exactly once', (id) => {
    const { run, excluded } = target(id).scenarios;
    const placed = [...run[specVersion], ...excluded[specVersion].flatMap((group) => group.scenarios)].sort();
    expect(placed).toEqual([...serverScenarios[specVersion]].sort());
    for (const group of excluded[specVersion]) expect(group.reason.trim()).not.toBe('');
  });

  describe.each(targets.map(({ id }) => id))('%s', (id) => {
    const { describe: title, scenarios, baseline, comparedWithDirect } = target(id);
    it.each(scenarios.run[specVersion])(`${title}: %s`, (scenario) => {
      // The fixture is the reference: what it passes, Search MCP in front of it must pass too.
      const mustPass = comparedWithDirect
        ? targetResults(specVersion, 'direct').get(scenario)?.failures.length === 0
        : true;
      const problem = expectationProblem(
        targetResults(specVersion, id).get(scenario),
        baseline?.list.find(scenario, specVersion),
        mustPass,
        baseline?.file ?? '',
      );
      expect(problem, problem).toBeUndefined();
    });
  });

  it("every entry of the fixture's baseline names a scenario it runs", () => {
    const { scenarios, baseline } = target('direct');
    const stray = (baseline?.list.entries ?? []).filter(
      (entry) => entry.specVersion === specVersion && !scenarios.run[specVersion].includes(entry.scenario),
    );
    expect(stray.map((entry) => entry.scenario)).toEqual([]);
  });
});

it.each(searchMcpHttpModes.map(([id]) => id))('one %s process served both revisions, start to end', (id) => {
  // Started once in beforeAll and never restarted: still running now means it served every scenario.
  const server = searchMcpProcesses.get(id);
  expect(server?.running, server?.logTail()).toBe(true);
});

it('the stdio children wrote only protocol to stdout, and none ended before the relay ended it', () => {
  expect(stdioRelay?.problems()).toEqual([]);
});
