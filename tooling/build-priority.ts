import { getPriority, setPriority } from 'node:os';

/**
 * `pnpm test` runs every package's tests beside the builds that other tests wait on: the bundles (search-mcp-http's
 * and the CLI's tests, the longest, wait for them), the test kit's fixture servers and the declarations (the packaging
 * tests wait for them). With an equal share of two cores, a build that needs seconds of CPU took a minute. So builds
 * go first: a build that goes first costs the tests beside it the same CPU, earlier.
 */

/**
 * Raises the priority of this process (and of what it starts after) where the system allows it (root, CAP_SYS_NICE);
 * elsewhere it keeps the usual one. Called by the build tools as they load their configs.
 */
export function raiseBuildPriority(): void {
  try {
    setPriority(-10);
  } catch {
    // Not allowed here: the usual priority.
  }
}

/**
 * Lowers the priority of this process (and of what it starts after: vitest's workers and every process a test
 * spawns) to nice 10, which any user may do. Called as vitest loads a package's config: what runs at the usual
 * priority before that (`pnpm run` of a build, the build tool's own start) then goes before the tests too, where
 * `raiseBuildPriority` only takes effect once a build's config has loaded, and only as root. Never raises a priority
 * someone lowered further.
 */
export function lowerTestPriority(): void {
  try {
    if (getPriority() < 10) setPriority(10);
  } catch {
    // Not allowed here: the usual priority.
  }
}
