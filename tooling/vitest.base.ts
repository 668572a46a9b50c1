import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import { lowerTestPriority } from './build-priority.js';
import { realServiceTestFiles, realServiceTestsIn, repositoryRoot } from './real-service-tests.js';

// Builds before tests (tooling/build-priority.ts): every package's vitest loads this file.
lowerTestPriority();

/**
 * The one vitest configuration every package tests with. Tests sit beside the code (`src/**\/*.test.ts`) or under
 * `test/`; real MCP servers are spawned, and the slowest fixture takes 10 s to start, hence the generous timeouts.
 *
 * The README's test command runs every package's vitest at once under turbo, on machines with as few as 2 cores. So
 * each package's files share their worker processes (`isolate: false`): a worker imports the SDK, zod and the package
 * once rather than once per file, which took most of the CPU time of a run (the shared package: 42 s of CPU with a
 * fresh process per file, 6 s without). Test files therefore leave no global state behind: they restore fake timers,
 * stubbed variables and `process.env` in their `afterEach`/`afterAll`, and close every server they start.
 *
 * A package's run leaves out its files that start a real outside service (an authorization server, Redis,
 * bubblewrap: tooling/real-service-tests.ts) and refuses such a start (`SEARCH_MCP_REAL_SERVICES=refuse`, see the
 * test kit's `claimRealService`). The real-service suites (tests/conformance, browser, cluster) say
 * `realServiceSuite: true`; tests/real-services runs the listed files with `listedRealServiceTestConfig`.
 */
export function packageTestConfig(
  overrides: { include?: string[]; testTimeout?: number; filesAtOnce?: number; realServiceSuite?: boolean } = {},
) {
  const timeout = overrides.testTimeout ?? 60_000;
  const suite = overrides.realServiceSuite === true;
  // vitest's root is the directory it runs in (a package's, under turbo): its globs are relative to it.
  const packagePath = relative(repositoryRoot, process.cwd());
  return defineConfig({
    test: {
      include: overrides.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts'],
      exclude: [...configDefaults.exclude, ...(suite ? [] : realServiceTestsIn(packagePath))],
      testTimeout: timeout,
      hookTimeout: timeout,
      isolate: false,
      // A test imports another workspace package by its name, which resolves to that package's built `dist/` (its
      // `exports`), as in an install. Node loads those files itself, as it loads the SDK from node_modules: vite-node
      // would otherwise rewrite and source-map each one (the runtime's tests spent 4.0 s of CPU in vitest's main
      // process with them rewritten, 2.3 s without).
      server: { deps: { external: [/\/packages\/[^/]+\/dist\//, /\/apps\/[^/]+\/dist\//] } },
      // vitest runs (cores − 1) files at once: one on 2 cores. A package whose files mostly wait on the processes they
      // spawn (the apps' end-to-end tests) asks for at least `filesAtOnce`, so that its waits overlap.
      ...(overrides.filesAtOnce !== undefined
        ? { maxWorkers: Math.max(overrides.filesAtOnce, availableParallelism() - 1) }
        : {}),
      // Test runs must neither read nor write the pins of the person running them (docs/trust.md, "Pinning and
      // quarantine"): the tests of pinning give their runtimes a pin store, or their children a state folder, of their own.
      // The same for the tool lists kept between runs (README, "Discovery before the servers are up").
      env: {
        SEARCH_MCP_PINNING: 'off',
        SEARCH_MCP_TOOL_CACHE: 'off',
        SEARCH_MCP_REAL_SERVICES: suite ? 'run' : 'refuse',
      },
    },
  });
}

/**
 * tests/real-services: the files of tooling/real-service-tests.ts where they sit, from the repository root (each
 * resolves its imports from its own package). Most of their time is waiting on the services and processes they
 * start: two files at a time.
 */
export function listedRealServiceTestConfig() {
  return mergeConfig(
    packageTestConfig({ include: [...realServiceTestFiles], filesAtOnce: 2, realServiceSuite: true }),
    defineConfig({ root: repositoryRoot }),
  );
}
