import { readFileSync } from 'node:fs';
import type { SpecVersion } from './conformance-cli.js';

/** A scenario expected to fail, the checks that fail in it, and why. */
export interface ExpectedFailure {
  scenario: string;
  specVersion: SpecVersion;
  /** Ids of the checks that fail (FAILURE); any other failing check is a new failure. */
  checks: string[];
  reason: string;
}

export interface ExpectedFailures {
  find(scenario: string, specVersion: SpecVersion): ExpectedFailure | undefined;
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
