import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type RedisServer, startRedisServer } from '@search-mcp/test-kit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../test/cli-process.js';
import { cliEntry, mainToken, request, temporaryDirectory } from '../test/http-test-support.js';

const run = promisify(execFile);
let directory: { path: string; remove: () => Promise<void> };
let redis: RedisServer;

beforeAll(async () => {
  directory = await temporaryDirectory();
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
  await directory?.remove();
});

async function configWith(name: string, cluster: unknown): Promise<string> {
  const file = join(directory.path, name);
  await writeFile(
    file,
    JSON.stringify({ mcpServers: {}, auth: { tokens: [{ id: 'main', token: mainToken }] }, cluster }),
  );
  return file;
}

describe('search-mcp-http with cluster in the config', () => {
  it('shares its state in Redis (the URL from ${VAR}), says so in one line, and closes it on SIGTERM', async () => {
    const config = await configWith('cluster.json', { redis: { url: '${TEST_REDIS_URL}', keyPrefix: 'cli-test:' } });
    const cli = await startCli(['--config', config, '--port', '0', '--log-level', 'info'], {
      ...process.env,
      TEST_REDIS_URL: redis.url,
    });
    try {
      expect(cli.stderr()).toContain(`"store":"redis://127.0.0.1:${redis.port}/0","shared":true`);
      expect((await request(cli.url, '/v1/tools')).status).toBe(200);
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect(await cli.exited).toEqual([0, null]);
  });

  it('keeps its state in the process without cluster', async () => {
    const file = join(directory.path, 'single.json');
    await writeFile(file, JSON.stringify({ mcpServers: {}, auth: { tokens: [{ id: 'main', token: mainToken }] } }));
    const cli = await startCli(['--config', file, '--port', '0', '--log-level', 'info']);
    try {
      expect(cli.stderr()).toContain('"store":"in-process","shared":false');
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect(await cli.exited).toEqual([0, null]);
  });

  it('exits 1 with the reason when Redis cannot be reached, without printing its password', async () => {
    const stopped = await startRedisServer();
    const url = stopped.url.replace('redis://', 'redis://:hunter2-password@');
    await stopped.stop();
    const config = await configWith('unreachable.json', { redis: { url } });
    const failure = (await run(process.execPath, [cliEntry, '--config', config, '--port', '0']).catch(
      (error: unknown) => error,
    )) as { code: number; stderr: string };
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain(
      `cluster: Cannot connect to the cluster store's Redis at redis://127.0.0.1:${stopped.port}/0`,
    );
    expect(failure.stderr).not.toContain('hunter2-password');
  });

  it('exits 2 for a cluster URL that is not redis://', async () => {
    const config = await configWith('http-url.json', { redis: { url: 'http://127.0.0.1:6379' } });
    const failure = (await run(process.execPath, [cliEntry, '--config', config, '--port', '0']).catch(
      (error: unknown) => error,
    )) as { code: number; stderr: string };
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('cluster.redis.url: expected a redis:// or rediss:// URL');
  });
});
