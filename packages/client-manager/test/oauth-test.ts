import { it } from 'vitest';
import { createManagers, type Managers } from './manager-harness.js';
import { createOAuthFixtures, type OAuthFixtures } from './oauth-harness.js';

/**
 * `it` with OAuth fixture servers and managers of the test's own, closed when that test ends (managers first, then
 * the servers they talk to). Unlike `useOAuthFixtures()` and `useManagers()`, whose `afterEach` closes everything
 * opened so far, this is safe in a `describe.concurrent` suite: the OAuth flows mostly wait (on a startup timeout, an
 * expiring token, a person in the browser), so the cases of a file wait side by side instead of one after another.
 */
export const oauthTest = it.extend<{ fixtures: OAuthFixtures; managers: Managers }>({
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern.
  fixtures: async ({}, use) => {
    const fixtures = createOAuthFixtures();
    await use(fixtures);
    await fixtures.close();
  },
  // Depends on `fixtures`, so it is set up after them and torn down before them.
  managers: async ({ fixtures: _serversClosedAfterManagers }, use) => {
    const managers = createManagers();
    await use(managers);
    await managers.close();
  },
});
