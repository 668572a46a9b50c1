import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientScenarioOutcome, runClientScenarios } from './harness/client-scenario-runner.js';
import { clientExclusions, parseClientScenarioList, planClientScenarios, runKey } from './harness/client-scenarios.js';
import { listClientScenarios } from './harness/conformance-cli.js';
import { expectationProblem } from './harness/expectation-check.js';
import { writeResultsSection } from './harness/results-file.js';
import { formatClientResultsTable } from './harness/results-table.js';

const resultsFile = fileURLToPath(new URL('../results/conformance-table.md', import.meta.url));
const outputRoot = fileURLToPath(new URL('../results/client/', import.meta.url));

/** Two suite runs at a time: the scenarios are independent (each its own server on an ephemeral port). */
const concurrency = 2;

// The scenarios come from the suite itself, so an upgrade that adds one gets its own test here.
const listed = parseClientScenarioList(await listClientScenarios());
const plan = planClientScenarios(listed);

const outcomes = new Map<string, ClientScenarioOutcome>();
let durationMs = 0;
const stopRuns = new AbortController();

/** Every scenario × version runs here, `concurrency` at a time; the tests below only read the results. */
beforeAll(async () => {
  await rm(outputRoot, { recursive: true, force: true });
  const started = performance.now();
  const done = await runClientScenarios(plan.runs, { outputRoot, concurrency, signal: stopRuns.signal });
  durationMs = performance.now() - started;
  for (const outcome of done) outcomes.set(runKey(outcome), outcome);
  const table = formatClientResultsTable(
    plan.runs.map((run) => ({
      ...run,
      result: outcomes.get(runKey(run))?.result,
    })),
    plan.excluded,
  );
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const each = done.map((outcome) => `${runKey(outcome)} ${seconds(outcome.run.durationMs)}`).join(', ');
  const report = `${table}\n\n${plan.runs.length} runs, ${concurrency} at a time: ${seconds(durationMs)} (${each})`;
  await writeResultsSection(resultsFile, 'Client scenarios', report);
  console.log(report);
});

afterAll(() => {
  stopRuns.abort();
});

describe('conformance client scenarios, @search-mcp/client-manager as the client', () => {
  it('every scenario the suite lists runs at each of its versions, or is excluded with a reason', () => {
    const placed = new Set([...plan.runs.map((run) => run.scenario), ...plan.excluded.map((entry) => entry.scenario)]);
    expect([...placed].sort()).toEqual(listed.map((entry) => entry.scenario).sort());
    expect(plan.runs.length).toBeGreaterThan(0);
    for (const { reason } of clientExclusions) expect(reason.trim()).not.toBe('');
  });

  it('the run covered exactly the planned scenario × version runs, each with its checks', () => {
    const covered = [...outcomes.values()].filter((outcome) => outcome.result !== undefined).map(runKey);
    const missing = plan.runs.map(runKey).filter((key) => !covered.includes(key));
    const output = missing.map((key) => `${key}:\n${outcomes.get(key)?.run.output.slice(-2000) ?? '(not run)'}`);
    expect(covered.sort(), output.join('\n')).toEqual(plan.runs.map(runKey).sort());
  });

  it.each(plan.runs.map((run) => [run.scenario, run.specVersion] as const))('%s at %s', (scenario, specVersion) => {
    const outcome = outcomes.get(runKey({ scenario, specVersion }));
    // No list of accepted failures: every scenario run here must pass with client-manager as the client.
    const problem = expectationProblem(outcome?.result, undefined, true, '');
    // The runner's own last words say why a scenario wrote no checks (it crashed, or the client never started).
    expect(problem, problem && `${problem}\n${outcome?.run.output.slice(-2000) ?? ''}`).toBeUndefined();
  });
});
