import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureHttpServer, startFixtureHttpServer } from './fixture/fixture-http-server.js';
import { runServerSuite, type SpecVersion, type SuiteRun } from './harness/conformance-cli.js';
import { expectationProblem } from './harness/expectation-check.js';
import { loadExpectedFailures } from './harness/expected-failures.js';
import { fixtureServerId, writeProxyConfig } from './harness/proxy-config.js';
import { formatResultsTable, type VersionResults } from './harness/results-table.js';
import { readScenarioResults } from './harness/scenario-results.js';
import { type SearchMcpHttp, startSearchMcpHttp } from './harness/search-mcp-http-process.js';
import { serverScenarios, specVersions } from './harness/server-scenarios.js';

const resultsDirectory = fileURLToPath(new URL('../results/', import.meta.url));
const baselineFile = 'expectations/direct-baseline.json';
const knownGapsFile = 'expectations/search-mcp-known-gaps.json';
const baseline = loadExpectedFailures(new URL(`../${baselineFile}`, import.meta.url));
const knownGaps = loadExpectedFailures(new URL(`../${knownGapsFile}`, import.meta.url));

let fixture: FixtureHttpServer | undefined;
let searchMcp: SearchMcpHttp | undefined;
let configDirectory: string | undefined;
let searchMcpPid: number | undefined;
const results = new Map<SpecVersion, VersionResults>();
const runs: Array<{ specVersion: SpecVersion; target: string; run: SuiteRun }> = [];
/** Ends a suite run still going when the tests end (a hook that timed out leaves its promise running). */
const stopRuns = new AbortController();

/**
 * The whole suite runs once, here: the fixture in this process, one search-mcp-http process in front of it for both
 * revisions (never restarted between scenarios), and one suite invocation per revision and target, one after the
 * other (the suite's stream checks wait for frames within fixed windows; running them side by side on two cores
 * would make those windows the thing measured). The tests below only read the results.
 */
beforeAll(async () => {
  await rm(resultsDirectory, { recursive: true, force: true });
  await mkdir(resultsDirectory, { recursive: true });
  fixture = await startFixtureHttpServer();
  configDirectory = await mkdtemp(join(tmpdir(), 'search-mcp-conformance-'));
  searchMcp = await startSearchMcpHttp(await writeProxyConfig(configDirectory, fixture.url), fixtureServerId);
  searchMcpPid = searchMcp.pid;
  for (const specVersion of specVersions) {
    const directDirectory = join(resultsDirectory, specVersion, 'direct');
    const proxyDirectory = join(resultsDirectory, specVersion, 'search-mcp-http');
    runs.push({
      specVersion,
      target: 'direct',
      run: await runServerSuite(fixture.url, specVersion, directDirectory, stopRuns.signal),
    });
    runs.push({
      specVersion,
      target: 'search-mcp-http',
      run: await runServerSuite(searchMcp.url, specVersion, proxyDirectory, stopRuns.signal),
    });
    results.set(specVersion, {
      specVersion,
      scenarios: serverScenarios[specVersion],
      direct: await readScenarioResults(directDirectory),
      throughSearchMcp: await readScenarioResults(proxyDirectory),
    });
  }
  const table = formatResultsTable([...results.values()], baseline, knownGaps);
  const timings = runs
    .map(({ specVersion, target, run }) => `${specVersion} ${target}: ${(run.durationMs / 1000).toFixed(1)} s`)
    .join(', ');
  await writeFile(join(resultsDirectory, 'conformance-table.md'), `${table}\nSuite runs: ${timings}\n`);
  console.log(`${table}\nSuite runs: ${timings}`);
});

afterAll(async () => {
  stopRuns.abort();
  await searchMcp?.close();
  await fixture?.close();
  if (configDirectory) await rm(configDirectory, { recursive: true, force: true });
});

function versionResults(specVersion: SpecVersion): VersionResults {
  const found = results.get(specVersion);
  if (!found) throw new Error(`the suite did not run for ${specVersion}`);
  return found;
}

describe.each(specVersions)('conformance server scenarios, %s', (specVersion) => {
  it('the suite ran exactly the scenarios listed for this revision', () => {
    const { direct, throughSearchMcp } = versionResults(specVersion);
    const listed = [...serverScenarios[specVersion]].sort();
    // The runner's own last words say why a scenario is missing (it crashed, or a suite update renamed one).
    const output = (target: string) =>
      runs.find((entry) => entry.specVersion === specVersion && entry.target === target)?.run.output.slice(-2000);
    expect([...direct.keys()].sort(), output('direct')).toEqual(listed);
    expect([...throughSearchMcp.keys()].sort(), output('search-mcp-http')).toEqual(listed);
  });

  describe('directly against the fixture', () => {
    it.each(serverScenarios[specVersion])('%s', (scenario) => {
      const problem = expectationProblem(
        versionResults(specVersion).direct.get(scenario),
        baseline.find(scenario, specVersion),
        true,
        baselineFile,
      );
      expect(problem, problem).toBeUndefined();
    });
  });

  describe('through search-mcp-http in proxy mode', () => {
    it.each(serverScenarios[specVersion])('%s', (scenario) => {
      const { direct, throughSearchMcp } = versionResults(specVersion);
      // The fixture is the reference: what it passes, Search MCP in front of it must pass too.
      const passesDirectly = direct.get(scenario)?.failures.length === 0;
      const problem = expectationProblem(
        throughSearchMcp.get(scenario),
        knownGaps.find(scenario, specVersion),
        passesDirectly,
        knownGapsFile,
      );
      expect(problem, problem).toBeUndefined();
    });
  });
});

it('one search-mcp-http process served both revisions, start to end', () => {
  expect(searchMcp?.pid).toBe(searchMcpPid);
  expect(searchMcp?.exitCode, searchMcp?.logTail()).toBeNull();
});
