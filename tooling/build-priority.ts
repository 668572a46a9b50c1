import { setPriority } from 'node:os';

/**
 * Raises the priority of this process (and of what it starts after) where the system allows it (root, CAP_SYS_NICE);
 * elsewhere it keeps the usual one. For the build tasks that tests wait on: `pnpm test` runs every package's tests
 * beside them, and with an equal share of two cores a build that needs seconds of CPU took a minute, holding back the
 * longest tests (search-mcp-http's and the CLI's wait for their bundles) and the packaging tests (they wait for the
 * declarations). A build that goes first costs the tests beside it the same CPU, earlier.
 */
export function raiseBuildPriority(): void {
  try {
    setPriority(-10);
  } catch {
    // Not allowed here: the usual priority.
  }
}
