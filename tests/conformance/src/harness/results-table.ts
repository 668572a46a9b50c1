import type { SpecVersion } from './conformance-cli.js';
import type { ExpectedFailures } from './expected-failures.js';
import type { ScenarioResult } from './scenario-results.js';
import type { TargetScenarios } from './server-scenarios.js';

/** One target's results for one revision, and what it was meant to run. */
export interface TargetResults {
  /** The column's heading. */
  title: string;
  scenarios: TargetScenarios;
  /** The fixture's own baseline (the direct target only): what fails there and why. */
  expectedFailures?: ExpectedFailures;
  results: Map<string, ScenarioResult>;
}

function cell(result: ScenarioResult | undefined, expected: boolean): string {
  if (!result) return 'not run';
  const warnings =
    result.warnings.length > 0 ? ` (${result.warnings.map((check) => `warning: ${check.id}`).join(', ')})` : '';
  if (result.failures.length === 0) return `pass${warnings}`;
  const failed = [...new Set(result.failures.map((check) => check.id))].join(', ');
  return `${expected ? 'FAIL, expected' : 'FAIL'}: ${failed}${warnings}`;
}

/**
 * A Markdown table per revision: one row per scenario, one column per target. A scenario a target does not run says
 * `excluded` (the reasons are in `server-scenarios.ts`); results of scenarios a target ran but does not list (a suite
 * run covers them all) are not shown.
 */
export function formatResultsTable(
  specVersion: SpecVersion,
  scenarios: readonly string[],
  targets: readonly TargetResults[],
): string {
  const rows = scenarios.map((scenario) => {
    const cells = targets.map(({ scenarios: planned, expectedFailures, results }) =>
      planned.run[specVersion].includes(scenario)
        ? cell(results.get(scenario), expectedFailures?.find(scenario, specVersion) !== undefined)
        : 'excluded',
    );
    return `| ${scenario} | ${cells.join(' | ')} |`;
  });
  const counts = targets.map(({ title, scenarios: planned, results }) => {
    const run = planned.run[specVersion];
    const passed = run.filter((scenario) => results.get(scenario)?.failures.length === 0).length;
    return `${passed}/${run.length} ${title}`;
  });
  return [
    `### ${specVersion}: ${counts.join(', ')}`,
    '',
    `| scenario | ${targets.map(({ title }) => title).join(' | ')} |`,
    `| --- | ${targets.map(() => '---').join(' | ')} |`,
    ...rows,
  ].join('\n');
}

/** One client scenario run's cell, as `cell` above. */
export interface ClientTableRun {
  scenario: string;
  specVersion: string;
  result: ScenarioResult | undefined;
}

/**
 * The client scenarios: one row per scenario, one column per spec version (`–` where the suite does not list the
 * scenario at that version), then the excluded scenarios, one line per reason.
 */
export function formatClientResultsTable(
  runs: readonly ClientTableRun[],
  excluded: ReadonlyArray<{ scenario: string; reason: string }>,
): string {
  const versions = [...new Set(runs.map((run) => run.specVersion))].sort();
  const scenarios = [...new Set(runs.map((run) => run.scenario))];
  const passed = runs.filter((run) => run.result?.failures.length === 0).length;
  const rows = scenarios.map((scenario) => {
    const cells = versions.map((specVersion) => {
      const run = runs.find((entry) => entry.scenario === scenario && entry.specVersion === specVersion);
      return run ? cell(run.result, false) : '–';
    });
    return `| ${scenario} | ${cells.join(' | ')} |`;
  });
  const reasons = new Map<string, string[]>();
  for (const { scenario, reason } of excluded) reasons.set(reason, [...(reasons.get(reason) ?? []), scenario]);
  const excludedLines = [...reasons].map(
    ([reason, names]) => `- Excluded, ${names.length}: ${names.join(', ')}. Why: ${reason}`,
  );
  return [
    `### @search-mcp/client-manager as the client: ${passed}/${runs.length} scenario runs pass`,
    '',
    `| scenario | ${versions.join(' | ')} |`,
    `| --- | ${versions.map(() => '---').join(' | ')} |`,
    ...rows,
    '',
    ...excludedLines,
  ].join('\n');
}
