import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The one vitest configuration every package tests with. Tests sit beside the code (`src/**\/*.test.ts`) or under
 * `test/`; real MCP servers are spawned, and the slowest fixture takes 10 s to start, hence the generous timeouts.
 *
 * The README's test command runs every package's vitest at once under turbo, on machines with as few as 2 cores. So
 * each package's files share their worker processes (`isolate: false`): a worker imports the SDK, zod and the package
 * once rather than once per file, which took most of the CPU time of a run (the shared package: 42 s of CPU with a
 * fresh process per file, 6 s without). Test files therefore leave no global state behind: they restore fake timers,
 * stubbed variables and `process.env` in their `afterEach`/`afterAll`, and close every server they start.
 */
export function packageTestConfig(overrides: { include?: string[]; testTimeout?: number; filesAtOnce?: number } = {}) {
  const timeout = overrides.testTimeout ?? 60_000;
  return defineConfig({
    test: {
      include: overrides.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: timeout,
      hookTimeout: timeout,
      isolate: false,
      // vitest runs (cores − 1) files at once: one on 2 cores. A package whose files mostly wait on the processes they
      // spawn (the apps' end-to-end tests) asks for at least `filesAtOnce`, so that its waits overlap.
      ...(overrides.filesAtOnce !== undefined
        ? { maxWorkers: Math.max(overrides.filesAtOnce, availableParallelism() - 1) }
        : {}),
      // Test runs must neither read nor write the pins of the person running them (docs/trust.md, "Pinning and
      // quarantine"): the tests of pinning give their runtimes a pin store, or their children a state folder, of their own.
      // The same for the tool lists kept between runs (README, "Discovery before the servers are up").
      env: { SEARCH_MCP_PINNING: 'off', SEARCH_MCP_TOOL_CACHE: 'off' },
    },
  });
}
