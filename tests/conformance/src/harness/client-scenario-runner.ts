import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ClientScenarioRun } from './client-scenarios.js';
import { runClientScenario, type SuiteRun } from './conformance-cli.js';
import { readClientScenarioResult, type ScenarioResult } from './scenario-results.js';

const require = createRequire(import.meta.url);

/** The client under test: `@search-mcp/client-manager` as one backend connection (see the file). */
export const clientProgramPath = fileURLToPath(new URL('../client/search-mcp-client.ts', import.meta.url));

/**
 * The command the suite runs (it appends the scenario server's URL): the client program on the Node that runs this
 * process (20; the suite itself runs on 22), TypeScript loaded by this package's tsx (`--import`, by its file URL, so
 * it does not depend on the working directory). The suite splits the command at spaces and runs it through a shell,
 * so no part may contain whitespace. The client imports the manager's built `dist/`, checked here for a clear error.
 */
export function clientCommand(): string {
  const manager = join(dirname(require.resolve('@search-mcp/client-manager/package.json')), 'dist', 'index.js');
  if (!existsSync(manager)) {
    throw new Error(`${manager} is missing: build it (npx turbo run build --filter=@search-mcp/client-manager...)`);
  }
  const parts = [process.execPath, '--import', pathToFileURL(require.resolve('tsx')).href, clientProgramPath];
  const spaced = parts.find((part) => /\s/.test(part));
  if (spaced) throw new Error(`the suite splits --command at spaces, and this path has one: ${spaced}`);
  return parts.join(' ');
}

export interface ClientScenarioOutcome extends ClientScenarioRun {
  run: SuiteRun;
  /** Undefined when the suite wrote no `checks.json` (the runner's output says why). */
  result: ScenarioResult | undefined;
}

/**
 * Runs each scenario at its version with the client under test, `concurrency` at a time (each a suite process on
 * Node 22 with its own scenario server on an ephemeral port, and a client process). Each run's files go to
 * `<outputRoot>/<version>/<scenario>/`, emptied first. The client scenarios' timing checks have only lower bounds
 * (`sse-retry`: the client must not reconnect before the `retry` delay), so a busy machine cannot make them fail.
 */
export async function runClientScenarios(
  runs: readonly ClientScenarioRun[],
  options: {
    outputRoot: string;
    concurrency: number;
    signal?: AbortSignal;
    onOutcome?: (outcome: ClientScenarioOutcome) => void;
  },
): Promise<ClientScenarioOutcome[]> {
  const command = clientCommand();
  const outcomes: ClientScenarioOutcome[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < runs.length && !options.signal?.aborted) {
      const entry = runs[next];
      next += 1;
      if (!entry) break;
      const outputDir = join(options.outputRoot, entry.specVersion, entry.scenario.replaceAll('/', '_'));
      await rm(outputDir, { recursive: true, force: true });
      const run = await runClientScenario(command, entry.scenario, entry.specVersion, outputDir, options.signal);
      const outcome = { ...entry, run, result: await readClientScenarioResult(outputDir, entry.scenario, run.output) };
      outcomes.push(outcome);
      options.onOutcome?.(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return outcomes;
}
