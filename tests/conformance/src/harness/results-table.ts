import type { SpecVersion } from './conformance-cli.js';
import type { ExpectedFailures } from './expected-failures.js';
import type { ScenarioResult } from './scenario-results.js';

export interface VersionResults {
  specVersion: SpecVersion;
  scenarios: readonly string[];
  direct: Map<string, ScenarioResult>;
  throughSearchMcp: Map<string, ScenarioResult>;
}

function cell(result: ScenarioResult | undefined, expected: boolean): string {
  if (!result) return 'not run';
  const warnings =
    result.warnings.length > 0 ? ` (${result.warnings.map((check) => `warning: ${check.id}`).join(', ')})` : '';
  if (result.failures.length === 0) return `pass${warnings}`;
  const failed = [...new Set(result.failures.map((check) => check.id))].join(', ');
  return `${expected ? 'FAIL, expected' : 'FAIL'}: ${failed}${warnings}`;
}

/** A Markdown table per revision: scenario, result directly against the fixture, result through search-mcp-http. */
export function formatResultsTable(
  versions: readonly VersionResults[],
  baseline: ExpectedFailures,
  knownGaps: ExpectedFailures,
): string {
  const sections = versions.map(({ specVersion, scenarios, direct, throughSearchMcp }) => {
    const rows = scenarios.map((scenario) => {
      const directCell = cell(direct.get(scenario), baseline.find(scenario, specVersion) !== undefined);
      const proxyCell = cell(throughSearchMcp.get(scenario), knownGaps.find(scenario, specVersion) !== undefined);
      return `| ${scenario} | ${directCell} | ${proxyCell} |`;
    });
    const passed = (results: Map<string, ScenarioResult>) =>
      scenarios.filter((scenario) => results.get(scenario)?.failures.length === 0).length;
    return [
      `### ${specVersion}: ${passed(direct)}/${scenarios.length} pass directly, ${passed(throughSearchMcp)}/${scenarios.length} through search-mcp-http`,
      '',
      '| scenario | direct (fixture) | through search-mcp-http (proxy) |',
      '| --- | --- | --- |',
      ...rows,
    ].join('\n');
  });
  return `${sections.join('\n\n')}\n`;
}
