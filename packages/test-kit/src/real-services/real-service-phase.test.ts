import { describe, expect, it } from 'vitest';
import { startAuthorizationServer } from '../oauth/authorization-server.js';
import { startRedisServer } from '../redis/redis-server.js';

// This file runs in the test kit's own run, which refuses real outside services (tooling/vitest.base.ts): what a test
// listed nowhere meets when it starts one.
describe('a package run, which leaves real outside services to tests/real-services', () => {
  it('refuses an authorization server and Redis, naming the list a test file that needs one belongs in', async () => {
    await expect(startAuthorizationServer()).rejects.toThrow(
      /an authorization server \(oidc-provider\), a real outside service: .*tooling\/real-service-tests\.ts/,
    );
    await expect(startRedisServer()).rejects.toThrow(/starts Redis, a real outside service/);
  });
});
