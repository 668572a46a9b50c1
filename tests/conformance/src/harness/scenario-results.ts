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

/**
 * `-o DIR` for a client scenario writes one folder, `<scenario>-<ISO time>`; a scenario name with a `/`
 * (`auth/metadata-default`) makes the part before it a folder of its own (`auth/metadata-default-<ISO time>`).
 */
const clientFolder = /^(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;

/**
 * Reads the one client scenario run written under `outputDir`. The client process's own end counts too: the suite
 * reports a client that timed out or exited non-zero only in its output (not in `checks.json`), and such a run is
 * given a FAILURE check here (`client-timeout`, `client-exit-code`), so it cannot pass on the checks it reached.
 */
export async function readClientScenarioResult(
  outputDir: string,
  scenario: string,
  runnerOutput: string,
): Promise<ScenarioResult | undefined> {
  const parent = join(outputDir, ...scenario.split('/').slice(0, -1));
  const name = scenario.split('/').at(-1);
  let folders: string[];
  try {
    folders = await readdir(parent);
  } catch {
    return undefined;
  }
  const folder = folders.find((entry) => clientFolder.exec(entry)?.[1] === name);
  if (folder === undefined) return undefined;
  let checks: ConformanceCheck[];
  try {
    checks = JSON.parse(await readFile(join(parent, folder, 'checks.json'), 'utf8')) as ConformanceCheck[];
  } catch {
    return undefined;
  }
  const exit = /Client exited with code (-?\d+)/.exec(runnerOutput);
  if (exit)
    checks.push({ id: 'client-exit-code', status: 'FAILURE', errorMessage: `the client exited with ${exit[1]}` });
  const timeout = /Client timed out after (\d+)ms/.exec(runnerOutput);
  if (timeout)
    checks.push({ id: 'client-timeout', status: 'FAILURE', errorMessage: `the client ran over ${timeout[1]} ms` });
  return {
    scenario,
    failures: checks.filter((check) => check.status === 'FAILURE'),
    warnings: checks.filter((check) => check.status === 'WARNING'),
  };
}
