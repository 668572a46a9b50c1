// Runs the suite's client scenarios by hand, the same way the test does (`src/harness/client-scenario-runner.ts`):
//   pnpm client-scenarios                       every non-auth, non-extension scenario at each of its versions
//   pnpm client-scenarios sse-retry tools_call  those scenarios only (at each of their versions)
// One line per run: PASS, or FAIL with the failing checks. Exits 1 when a run failed. Each run's files go to
// `results/client/<version>/<scenario>/`.
import { fileURLToPath } from 'node:url';
import { runClientScenarios } from '../harness/client-scenario-runner.js';
import { parseClientScenarioList, planClientScenarios } from '../harness/client-scenarios.js';
import { listClientScenarios } from '../harness/conformance-cli.js';

const wanted = process.argv.slice(2);
const plan = planClientScenarios(parseClientScenarioList(await listClientScenarios()));
const runs = wanted.length > 0 ? plan.runs.filter((run) => wanted.includes(run.scenario)) : plan.runs;
const unknown = wanted.filter((name) => !plan.runs.some((run) => run.scenario === name));
if (unknown.length > 0) {
  const reasons = unknown.map((name) => {
    const excluded = plan.excluded.find((entry) => entry.scenario === name);
    return excluded ? `${name}: excluded (${excluded.reason})` : `${name}: not a client scenario of this suite`;
  });
  process.stderr.write(`${reasons.join('\n')}\n`);
  process.exit(2);
}
let failed = 0;
await runClientScenarios(runs, {
  outputRoot: fileURLToPath(new URL('../../results/client/', import.meta.url)),
  concurrency: 2,
  onOutcome: ({ scenario, specVersion, result, run }) => {
    const seconds = `${(run.durationMs / 1000).toFixed(1)} s`;
    if (result && result.failures.length === 0) {
      process.stdout.write(`PASS ${scenario} ${specVersion} (${seconds})\n`);
      return;
    }
    failed += 1;
    process.stdout.write(`FAIL ${scenario} ${specVersion} (${seconds})\n`);
    if (!result) process.stdout.write(`  no checks.json; the runner said:\n${run.output.slice(-2000)}\n`);
    for (const check of result?.failures ?? []) {
      process.stdout.write(`  ${check.id}: ${check.errorMessage ?? '(no message)'}\n`);
    }
  },
});
process.exit(failed === 0 ? 0 : 1);
