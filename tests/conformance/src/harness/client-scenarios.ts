/** One client scenario as `conformance list --client` gives it. */
export interface ListedClientScenario {
  scenario: string;
  /** The spec versions it applies to, or `extension` (an optional extension, not on the spec timeline). */
  versions: readonly string[] | 'extension';
}

/** One run: a scenario at one of the spec versions it is listed under. */
export interface ClientScenarioRun {
  scenario: string;
  specVersion: string;
}

export interface ExcludedClientScenario {
  scenario: string;
  reason: string;
}

export interface ClientScenarioPlan {
  runs: readonly ClientScenarioRun[];
  excluded: readonly ExcludedClientScenario[];
}

/**
 * Parses `conformance list --client`: a heading, then `  - <scenario> [<version>,…]` or `  - <scenario> [extension]`
 * per scenario. Anything else under the heading, or no scenario at all, is an error (the listing changed shape).
 */
export function parseClientScenarioList(output: string): ListedClientScenario[] {
  const lines = output.split('\n').map((line) => line.trimEnd());
  const heading = lines.findIndex((line) => line.startsWith('Client scenarios'));
  if (heading < 0) throw new Error(`no "Client scenarios" heading in conformance list --client:\n${output}`);
  const listed: ListedClientScenario[] = [];
  for (const line of lines.slice(heading + 1)) {
    if (line === '') continue;
    const match = /^ {2}- (\S+) \[([^\]]+)\]$/.exec(line);
    if (!match?.[1] || !match[2])
      throw new Error(`unexpected line in conformance list --client: ${JSON.stringify(line)}`);
    const versions = match[2].split(',').map((version) => version.trim());
    listed.push({
      scenario: match[1],
      versions: versions.length === 1 && versions[0] === 'extension' ? 'extension' : versions,
    });
  }
  if (listed.length === 0) throw new Error(`conformance list --client listed no scenario:\n${output}`);
  return listed;
}

/**
 * The `[extension]` scenarios that run (with the suite's own version choice: `conformance client` without
 * `--spec-version`, `extensionVersion` in a run): the authorization extensions the manager implements
 * (docs/oauth.md, "Without a person", "Enterprise-managed authorization" and "DPoP"): all six.
 */
export const runExtensionScenarios: ReadonlySet<string> = new Set([
  'auth/client-credentials-basic',
  'auth/client-credentials-jwt',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/wif-jwt-bearer',
  'auth/enterprise-managed-authorization',
]);

/** A run's `specVersion` for an `[extension]` scenario: not on the spec timeline, the suite picks the version. */
export const extensionVersion = 'extension';

/**
 * What is not run, and why. The first rule that matches a scenario excludes it; every other scenario runs at each
 * spec version it is listed under.
 */
export const clientExclusions: ReadonlyArray<{
  reason: string;
  matches: (scenario: ListedClientScenario) => boolean;
}> = [
  {
    reason:
      '`[extension]`: optional extensions, not on the spec timeline and not selected by `--spec-version`, that the ' +
      'manager does not implement: the SEP-2640 skills client checks (a host-side skills feature, not a client ' +
      'transport or authorization one). Every authorization extension runs (client credentials with a secret or a ' +
      'private-key JWT, workload identity federation, enterprise-managed authorization, DPoP).',
    matches: ({ scenario, versions }) => versions === 'extension' && !runExtensionScenarios.has(scenario),
  },
];

/** Every listed scenario either runs (at each of its versions) or is excluded with its reason. */
export function planClientScenarios(listed: readonly ListedClientScenario[]): ClientScenarioPlan {
  const runs: ClientScenarioRun[] = [];
  const excluded: ExcludedClientScenario[] = [];
  for (const entry of listed) {
    const exclusion = clientExclusions.find((rule) => rule.matches(entry));
    if (exclusion) excluded.push({ scenario: entry.scenario, reason: exclusion.reason });
    else if (entry.versions === 'extension') runs.push({ scenario: entry.scenario, specVersion: extensionVersion });
    else for (const specVersion of entry.versions) runs.push({ scenario: entry.scenario, specVersion });
  }
  return { runs, excluded };
}

/** `scenario@version`: a run's key in maps and file names. */
export function runKey({ scenario, specVersion }: ClientScenarioRun): string {
  return `${scenario}@${specVersion}`;
}
