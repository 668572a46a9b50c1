import { it } from 'vitest';
import { createManagers, type Managers } from './manager-harness.js';

/**
 * `it` with managers (and temporary directories) of the test's own, closed when that test ends. Unlike
 * `useManagers()`, whose `afterEach` closes every manager opened so far, this is safe in a `describe.concurrent`
 * suite: cases that mostly wait (a startup timeout, a restart backoff, a server that is still starting) wait side by
 * side instead of one after another.
 */
export const managerTest = it.extend<{ managers: Managers }>({
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern.
  managers: async ({}, use) => {
    const managers = createManagers();
    await use(managers);
    await managers.close();
  },
});
