import { fileURLToPath } from 'node:url';

/**
 * The test files that start a real outside service, by service, as paths from the repository root. The README's test
 * command runs every package's own tests first and these after them, in tests/real-services, beside the other
 * real-service suites (conformance, browser, cluster): on a 2-core machine the packages' tests then finish without
 * waiting on authorization servers, Redis restarts and sandboxes. A file stays where it is, beside the code it tests;
 * only when it runs changes.
 *
 * A package's own run leaves these files out and refuses the services (tooling/vitest.base.ts): a test there that
 * starts an authorization server or Redis through the test kit fails, naming this list.
 */
export const realServiceTests = {
  /** A real authorization server: `oidc-provider`, through the test kit's `startAuthorizationServer`. */
  authorizationServer: [
    'apps/http-server/src/access/oauth-resource/oidc-provider-tokens.test.ts',
    'apps/http-server/src/backend-oauth/oauth-callback.test.ts',
    'apps/http-server/src/backend-oauth/replica-callback-relay.test.ts',
    'apps/http-server/test/oauth-authorize-http.test.ts',
    'apps/http-server/test/oauth-in-front-http.test.ts',
    'apps/stdio-server/test/oauth-cli.test.ts',
    'apps/stdio-server/test/oauth-elicitation-stdio.test.ts',
    'packages/client-manager/src/oauth/file-oauth-store.test.ts',
    'packages/client-manager/src/oauth/oauth-applicability.test.ts',
    'packages/client-manager/src/oauth/oauth-bad-input.test.ts',
    'packages/client-manager/src/oauth/oauth-client-credentials.test.ts',
    'packages/client-manager/src/oauth/oauth-client-identity.test.ts',
    'packages/client-manager/src/oauth/oauth-declining-opener.test.ts',
    'packages/client-manager/src/oauth/oauth-login.test.ts',
    'packages/client-manager/src/oauth/oauth-refresh.test.ts',
    'packages/client-manager/src/oauth/oauth-revocation.test.ts',
    'packages/client-manager/src/oauth/oauth-step-up.test.ts',
    'packages/client-manager/src/per-user/per-user-connections.test.ts',
    'packages/client-manager/src/per-user/per-user-limits.test.ts',
    'packages/runtime/src/oauth-across-replicas.test.ts',
    'packages/test-kit/src/oauth/oauth-fixtures-edges.test.ts',
    'packages/test-kit/src/oauth/oauth-fixtures-sdk-client.test.ts',
    'packages/test-kit/src/oauth/oauth-fixtures.test.ts',
    'packages/test-kit/src/oauth/sign-in-as.test.ts',
  ],
  /** A real `redis-server`, through the test kit's `startRedisServer`. */
  redis: [
    'apps/http-server/src/access/cluster-rate-limit.test.ts',
    'apps/http-server/src/cli-cluster.test.ts',
    'apps/http-server/src/mcp/session-resumption.test.ts',
    'apps/http-server/src/rest/readiness-route.test.ts',
    'apps/http-server/test/replicas-http.test.ts',
    'packages/cluster/src/cluster-store-contract.test.ts',
    'packages/runtime/src/close-with-store-down.test.ts',
    'packages/runtime/src/cluster-tasks-wiring.test.ts',
    'packages/server/src/tasks/cluster-task-outage.test.ts',
    'packages/server/src/tasks/cluster-task-records.test.ts',
  ],
  /** Backends run in bubblewrap (Debian's `bwrap`), which `.ci/run` installs. */
  sandbox: [
    'apps/stdio-server/test/doctor-sandboxes.test.ts',
    'packages/client-manager/src/sandbox/sandboxed-servers.test.ts',
  ],
};

export const realServiceTestFiles: readonly string[] = Object.values(realServiceTests).flat();

/** The repository root, with a trailing separator. */
export const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

/** The files above inside the package at `packagePath` (from the repository root), relative to that package. */
export function realServiceTestsIn(packagePath: string): string[] {
  const prefix = `${packagePath.split('\\').join('/')}/`;
  return realServiceTestFiles.filter((file) => file.startsWith(prefix)).map((file) => file.slice(prefix.length));
}
