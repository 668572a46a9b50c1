import { readFileSync } from 'node:fs';
/** A scenario expected to fail, the checks that fail in it, and why. */
export interface ExpectedFailure {
  scenario: string;
  /** A server revision (`2025-11-25`, `2026-07-28`), or any version a client scenario runs at. */
  specVersion: string;
  /** Ids of the checks that fail (FAILURE); any other failing check is a new failure. */
  checks: string[];
  reason: string;
}

export interface ExpectedFailures {
  find(scenario: string, specVersion: string): ExpectedFailure | undefined;
  readonly entries: readonly ExpectedFailure[];
}

/** Reads a JSON list of expected failures (`expectations/*.json`). */
export function loadExpectedFailures(url: URL): ExpectedFailures {
  const entries = JSON.parse(readFileSync(url, 'utf8')) as ExpectedFailure[];
  for (const entry of entries) {
    if (!entry.scenario || !entry.specVersion || !Array.isArray(entry.checks) || entry.checks.length === 0) {
      throw new Error(`${url.pathname}: every entry needs scenario, specVersion, checks and reason`);
    }
    if (!entry.reason?.trim())
      throw new Error(`${url.pathname}: ${entry.scenario} (${entry.specVersion}) has no reason`);
  }
  return {
    entries,
    find: (scenario, specVersion) =>
      entries.find((entry) => entry.scenario === scenario && entry.specVersion === specVersion),
  };
}
