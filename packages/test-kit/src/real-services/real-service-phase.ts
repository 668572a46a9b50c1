/**
 * The README's test command runs every package's tests first, then the suites against real outside services: an
 * authorization server, Redis, bubblewrap (tooling/real-service-tests.ts lists their files, tests/real-services runs
 * them). The packages' own runs set `SEARCH_MCP_REAL_SERVICES=refuse` (tooling/vitest.base.ts), so a test there that
 * starts one of these services fails saying which list its file belongs in: the split stays true as tests change.
 */
export const realServicesVariable = 'SEARCH_MCP_REAL_SERVICES';

/** Throws in a package's own test run (see above); does nothing anywhere else (benchmarks, the real-service suite). */
export function claimRealService(service: string): void {
  if (process.env[realServicesVariable] !== 'refuse') return;
  throw new Error(
    `this test starts ${service}, a real outside service: the README's test command runs such tests after every ` +
      "package's own, so list its file in tooling/real-service-tests.ts (tests/real-services runs it)",
  );
}
