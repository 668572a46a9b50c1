import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One check of a scenario's `checks.json`, as much of it as the comparison reads. */
export interface ConformanceCheck {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
}

export interface ScenarioResult {
  scenario: string;
  /** The checks with status FAILURE: the scenario passes when there are none. */
  failures: ConformanceCheck[];
  warnings: ConformanceCheck[];
}

/** `-o DIR` writes one folder per scenario, `server-<scenario>-<ISO time>`. */
const scenarioFolder = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;

/** Reads every scenario a suite run wrote under `outputDir`, by scenario name. */
export async function readScenarioResults(outputDir: string): Promise<Map<string, ScenarioResult>> {
  const results = new Map<string, ScenarioResult>();
  for (const folder of await readdir(outputDir)) {
    const scenario = scenarioFolder.exec(folder)?.[1];
    if (scenario === undefined) continue;
    const checks = JSON.parse(await readFile(join(outputDir, folder, 'checks.json'), 'utf8')) as ConformanceCheck[];
    results.set(scenario, {
      scenario,
      failures: checks.filter((check) => check.status === 'FAILURE'),
      warnings: checks.filter((check) => check.status === 'WARNING'),
    });
  }
  return results;
}
