import { defineConfig } from 'vitest/config';

/**
 * The one vitest configuration every package tests with. Tests sit beside the code (`src/**\/*.test.ts`) or under
 * `test/`; real MCP servers are spawned, and the slowest fixture takes 10 s to start, hence the generous timeouts.
 */
export function packageTestConfig(overrides: { include?: string[]; testTimeout?: number } = {}) {
  const timeout = overrides.testTimeout ?? 30_000;
  return defineConfig({
    test: {
      include: overrides.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: timeout,
      hookTimeout: timeout,
      // Test runs must neither read nor write the pins of the person running them (docs/trust.md, "Pinning and
      // quarantine"): the tests of pinning give their runtimes a pin store, or their children a state folder, of their own.
      env: { SEARCH_MCP_PINNING: 'off' },
    },
  });
}
