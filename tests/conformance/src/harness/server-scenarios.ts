import type { SpecVersion } from './conformance-cli.js';

/**
 * The server scenarios `conformance list` gives for each revision (`@modelcontextprotocol/conformance@0.2.0-alpha.12`,
 * `--suite all`: the pending ones too). Not here: the extension scenarios (`tasks-*`, `sep-2640-*`: optional by
 * definition, and not selected by `--spec-version`), and the authorization ones (not server scenarios). Kept as a list
 * so each scenario has its own test, and so a suite update that adds or drops one shows up as a failing test.
 */
export const serverScenarios: Record<SpecVersion, readonly string[]> = {
  '2025-11-25': [
    'server-initialize',
    'server-session-lifecycle',
    'logging-set-level',
    'ping',
    'completion-complete',
    'tools-list',
    'tools-call-simple-text',
    'tools-call-image',
    'tools-call-audio',
    'tools-call-embedded-resource',
    'tools-call-mixed-content',
    'tools-call-with-logging',
    'tools-call-error',
    'tools-call-with-progress',
    'tools-call-sampling',
    'tools-call-elicitation',
    'json-schema-2020-12',
    'elicitation-sep1034-defaults',
    'server-sse-polling',
    'server-sse-multiple-streams',
    'elicitation-sep1330-enums',
    'resources-list',
    'resources-read-text',
    'resources-read-binary',
    'resources-templates-read',
    'resources-subscribe',
    'resources-unsubscribe',
    'prompts-list',
    'prompts-get-simple',
    'prompts-get-with-args',
    'prompts-get-embedded-resource',
    'prompts-get-with-image',
    'dns-rebinding-protection',
  ],
  '2026-07-28': [
    'server-stateless',
    'completion-complete',
    'tools-list',
    'tools-call-simple-text',
    'tools-call-image',
    'tools-call-audio',
    'tools-call-embedded-resource',
    'tools-call-mixed-content',
    'tools-call-error',
    'tools-call-with-progress',
    'json-schema-2020-12',
    'server-sse-multiple-streams',
    'resources-list',
    'resources-read-text',
    'resources-read-binary',
    'resources-templates-read',
    'sep-2164-resource-not-found',
    'prompts-list',
    'prompts-get-simple',
    'prompts-get-with-args',
    'prompts-get-embedded-resource',
    'prompts-get-with-image',
    'dns-rebinding-protection',
    'caching',
    'http-header-validation',
    'http-custom-header-server-validation',
    'input-required-result-basic-elicitation',
    'input-required-result-basic-sampling',
    'input-required-result-basic-list-roots',
    'input-required-result-request-state',
    'input-required-result-multiple-input-requests',
    'input-required-result-multi-round',
    'input-required-result-missing-input-response',
    'input-required-result-non-tool-request',
    'input-required-result-result-type',
    'input-required-result-unsupported-methods',
    'input-required-result-tampered-state',
    'input-required-result-capability-check',
    'input-required-result-ignore-extra-params',
    'input-required-result-validate-input',
  ],
};

export const specVersions = Object.keys(serverScenarios) as SpecVersion[];

/** Scenarios a target does not run, and the one reason they share. */
export interface ExcludedScenarios {
  scenarios: readonly string[];
  reason: string;
}

/**
 * What one target runs per revision: every scenario of `serverScenarios` is either in `run` or in exactly one
 * excluded group (a test checks this, so a suite update has to be placed somewhere).
 */
export interface TargetScenarios {
  run: Record<SpecVersion, readonly string[]>;
  excluded: Record<SpecVersion, readonly ExcludedScenarios[]>;
}

/** The direct and proxy-mode targets run everything. */
export const allScenarios: TargetScenarios = {
  run: serverScenarios,
  excluded: { '2025-11-25': [], '2026-07-28': [] },
};

const metaToolCallsReason =
  'tool calls: meta mode lists tool_discovery and tool_execute, not the fixture tools these scenarios call (a direct call by name reaches them, but that surface is proxy mode, covered by the proxy target)';

/** What meta mode leaves out (see `metaModeScenarios`). */
const metaModeExclusions: Record<SpecVersion, readonly ExcludedScenarios[]> = {
  '2025-11-25': [
    {
      scenarios: [
        'tools-call-simple-text',
        'tools-call-image',
        'tools-call-audio',
        'tools-call-embedded-resource',
        'tools-call-mixed-content',
        'tools-call-with-logging',
        'tools-call-error',
        'tools-call-with-progress',
        'tools-call-sampling',
        'tools-call-elicitation',
        'elicitation-sep1034-defaults',
        'elicitation-sep1330-enums',
        'server-sse-polling',
      ],
      reason: metaToolCallsReason,
    },
    {
      scenarios: ['json-schema-2020-12'],
      reason: "looks for the fixture's json_schema_2020_12_tool in tools/list, which in meta mode lists the meta-tools",
    },
  ],
  '2026-07-28': [
    {
      scenarios: [
        'tools-call-simple-text',
        'tools-call-image',
        'tools-call-audio',
        'tools-call-embedded-resource',
        'tools-call-mixed-content',
        'tools-call-error',
        'tools-call-with-progress',
        'http-custom-header-server-validation',
        'input-required-result-basic-elicitation',
        'input-required-result-basic-sampling',
        'input-required-result-basic-list-roots',
        'input-required-result-request-state',
        'input-required-result-multiple-input-requests',
        'input-required-result-multi-round',
        'input-required-result-missing-input-response',
        'input-required-result-result-type',
        'input-required-result-tampered-state',
        'input-required-result-capability-check',
        'input-required-result-ignore-extra-params',
        'input-required-result-validate-input',
      ],
      reason: metaToolCallsReason,
    },
    {
      scenarios: ['json-schema-2020-12'],
      reason: "looks for the fixture's json_schema_2020_12_tool in tools/list, which in meta mode lists the meta-tools",
    },
  ],
};

/** The scenarios `stdioRelayScenarios` excludes, per revision: what they check is HTTP, which stdio does not have. */
const relayedHttpExclusions: Record<SpecVersion, readonly ExcludedScenarios[]> = {
  '2025-11-25': [
    {
      scenarios: ['server-session-lifecycle', 'server-sse-polling', 'server-sse-multiple-streams'],
      reason:
        'HTTP sessions (Mcp-Session-Id, DELETE, 404 after it) and SSE streams (priming, retry, Last-Event-ID resumption, concurrent POST streams) are made by the relay, not by the stdio app',
    },
    {
      scenarios: ['dns-rebinding-protection'],
      reason: 'Host and Origin header checks are the relay HTTP front door; stdio has no headers',
    },
  ],
  '2026-07-28': [
    {
      scenarios: ['server-stateless'],
      reason:
        'most of its checks are the HTTP mapping (status 400/404 per JSON-RPC error, Mcp-Method mismatch, the subscriptions/listen HTTP stream), which the relay would have to implement',
    },
    {
      scenarios: ['server-sse-multiple-streams'],
      reason: 'concurrent POST streams are the relay HTTP handling',
    },
    {
      scenarios: ['dns-rebinding-protection', 'http-header-validation', 'http-custom-header-server-validation'],
      reason:
        'Host/Origin, Mcp-Method/Mcp-Name and Mcp-Param-* header checks are the relay HTTP front door; stdio has no headers',
    },
  ],
};

function allBut(specVersion: SpecVersion, exclusions: readonly ExcludedScenarios[]): readonly string[] {
  const excluded = new Set(exclusions.flatMap((group) => group.scenarios));
  return serverScenarios[specVersion].filter((scenario) => !excluded.has(scenario));
}

/** A target that runs every scenario but these groups (what it runs is derived, never listed twice). */
function excluding(exclusions: Record<SpecVersion, readonly ExcludedScenarios[]>): TargetScenarios {
  return {
    run: {
      '2025-11-25': allBut('2025-11-25', exclusions['2025-11-25']),
      '2026-07-28': allBut('2026-07-28', exclusions['2026-07-28']),
    },
    excluded: exclusions,
  };
}

/**
 * search-mcp-http in meta mode: its own protocol handling (initialize, sessions, ping, logging, streams, headers,
 * DNS rebinding, the stateless leg, its own tools/list), and what it passes through from the backend whatever the
 * tools (resources, prompts, completions). `tools-list` checks the structure and names of whatever tools are listed
 * (here the meta-tools); `server-stateless` mostly checks the stateless protocol (discover, `_meta`, removed methods,
 * subscriptions/listen), and the fixture's diagnostic tools it probes answer as direct calls. Of the SEP-2322
 * scenarios, the two without a tool call: `prompts/get` answering `input_required`, and no `input_required` from
 * `tools/list` and `prompts/list`.
 */
export const metaModeScenarios: TargetScenarios = excluding(metaModeExclusions);

/**
 * The stdio app (`search-mcp serve`, proxy mode, original names) behind `src/relay/stdio-relay.ts`: every scenario
 * whose checks are about MCP messages (initialize, ping, logging, tools with sampling, elicitation, progress and
 * logging, resources, subscriptions, prompts, completions, caching hints, SEP-2322 `input_required`), none whose
 * checks are about HTTP, since those would test the relay.
 */
export const stdioRelayScenarios: TargetScenarios = excluding(relayedHttpExclusions);
