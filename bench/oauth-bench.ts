/**
 * Benchmark of OAuth to remote servers in McpClientManager (docs/oauth.md), on loopback.
 *
 *   npx -y pnpm@10.34.9 bench:oauth
 *
 * Measures, in one run (the numbers are only comparable within a run: compare the ratios):
 *   1. the cost of the OAuth fetch wrapper on a server that never asks for OAuth: `echo` over Streamable HTTP to the
 *      test kit's HTTP fixture, a manager with `oauth: false` against one where the wrapper is in place (no `oauth`
 *      key), interleaved round by round;
 *   2. a login end to end against a real authorization server (`oidc-provider`, from `@search-mcp/test-kit/oauth`)
 *      protecting an MCP server that checks every token with `jose`: the first `start()` (401, discovery,
 *      registration, authorization through an opener that follows the URL, code exchange, connect and tools/list),
 *      against a second start over the stored tokens;
 *   3. calls with a bearer token to that server (`whoami`), and the same call when its access token has expired (one
 *      refresh at the token endpoint inside the call).
 *
 * Writes bench/results/oauth.json and bench/results/oauth.md and prints the markdown to stdout. Progress goes to
 * stderr.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createFileOAuthStore, McpClientManager } from '@search-mcp/client-manager';
import { silentLogger } from '@search-mcp/shared';
import { startHttpFixture } from '@search-mcp/test-kit/fixture-servers';
import { startAuthorizationServer, startProtectedMcpServer } from '@search-mcp/test-kit/oauth';
import {
  machineInfo,
  machineSummary,
  progressLog,
  round,
  roundSummary,
  type Summary,
  summarize,
} from './src/bench-support.js';

const log = progressLog('oauth-bench');
const rounds = Number(process.env.OAUTH_BENCH_ROUNDS ?? 10);
const callsPerRound = Number(process.env.OAUTH_BENCH_CALLS ?? 200);
const resultsDirectory = new URL('./results/', import.meta.url);

/** The person in the browser: the fixture's authorization server logs its test user in by itself. */
async function followInBrowser(url: URL): Promise<void> {
  const page = await fetch(url, { redirect: 'follow' });
  await page.text();
}

async function timeCalls(manager: McpClientManager, serverId: string, tool: string, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    await manager.callTool(serverId, tool, tool === 'echo' ? { message: 'hi' } : {});
    samples.push((performance.now() - started) * 1000);
  }
  return samples;
}

/** 1: the wrapper's cost where OAuth never applies, interleaved so drift hits both sides alike. */
async function wrapperOverhead(): Promise<{ without: Summary; wrapped: Summary; ratio: number }> {
  const fixture = await startHttpFixture();
  const plain = new McpClientManager(
    { mcpServers: { s: { url: fixture.url, oauth: false } } },
    { logger: silentLogger, watchdogScript: false },
  );
  const wrapped = new McpClientManager(
    { mcpServers: { s: { url: fixture.url } } },
    { logger: silentLogger, watchdogScript: false, oauth: { openAuthorizationUrl: false } },
  );
  try {
    await plain.start('s');
    await wrapped.start('s');
    await timeCalls(plain, 's', 'echo', 50);
    await timeCalls(wrapped, 's', 'echo', 50);
    const without: number[] = [];
    const withWrapper: number[] = [];
    for (let index = 0; index < rounds; index += 1) {
      const [first, second] = index % 2 === 0 ? [plain, wrapped] : [wrapped, plain];
      const a = await timeCalls(first, 's', 'echo', callsPerRound);
      const b = await timeCalls(second, 's', 'echo', callsPerRound);
      (first === plain ? without : withWrapper).push(...a);
      (second === plain ? without : withWrapper).push(...b);
      log(`wrapper round ${index + 1}/${rounds}`);
    }
    const a = summarize(without);
    const b = summarize(withWrapper);
    return { without: roundSummary(a), wrapped: roundSummary(b), ratio: round(b.p50 / a.p50) };
  } finally {
    await plain.close();
    await wrapped.close();
    fixture.child.kill();
  }
}

interface LoginNumbers {
  loginMs: number[];
  storedStartMs: number[];
  callWithToken: Summary;
  callWithRefresh: Summary;
  tokenRequests: Record<string, number>;
  registrations: number;
}

/** 2 and 3: a real authorization server; a fresh store per login. */
async function withAuthorizationServer(directory: string): Promise<LoginNumbers> {
  const authorizationServer = await startAuthorizationServer({ accessTokenTtlSeconds: 3600 });
  const mcpServer = await startProtectedMcpServer({ authorizationServer });
  const config = { mcpServers: { remote: { url: mcpServer.url.href } } };
  const loginMs: number[] = [];
  const storedStartMs: number[] = [];
  const withToken: number[] = [];
  const withRefresh: number[] = [];
  try {
    for (let index = 0; index < Math.max(3, Math.floor(rounds / 2)); index += 1) {
      const store = createFileOAuthStore(join(directory, `store-${index}.json`));
      const options = { logger: silentLogger, watchdogScript: false as const };
      const first = new McpClientManager(config, {
        ...options,
        oauth: { openAuthorizationUrl: followInBrowser, store },
      });
      let started = performance.now();
      await first.start('remote');
      loginMs.push(performance.now() - started);
      withToken.push(...(await timeCalls(first, 'remote', 'whoami', callsPerRound)));
      await first.close();
      const second = new McpClientManager(config, { ...options, oauth: { openAuthorizationUrl: false, store } });
      started = performance.now();
      await second.start('remote');
      storedStartMs.push(performance.now() - started);
      await second.close();
      // Tokens of 2 s: one is renewed halfway through its life, so a call a little over a second after the last one
      // refreshes inside it (counted below at the token endpoint).
      authorizationServer.setTokenLifetimes({ accessTokenSeconds: 2 });
      const third = new McpClientManager(config, {
        ...options,
        oauth: {
          openAuthorizationUrl: followInBrowser,
          store: createFileOAuthStore(join(directory, `short-${index}.json`)),
        },
      });
      await third.start('remote');
      for (let call = 0; call < 5; call += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1100));
        withRefresh.push(...(await timeCalls(third, 'remote', 'whoami', 1)));
      }
      authorizationServer.setTokenLifetimes({ accessTokenSeconds: 3600 });
      await third.close();
      log(`login round ${index + 1}`);
    }
    return {
      loginMs: loginMs.map((value) => round(value, 1)),
      storedStartMs: storedStartMs.map((value) => round(value, 1)),
      callWithToken: roundSummary(summarize(withToken)),
      callWithRefresh: roundSummary(summarize(withRefresh)),
      tokenRequests: { ...authorizationServer.activity.tokenRequests },
      registrations: authorizationServer.activity.registrations,
    };
  } finally {
    await mcpServer.close();
    await authorizationServer.close();
  }
}

function markdown(wrapper: Awaited<ReturnType<typeof wrapperOverhead>>, login: LoginNumbers): string {
  const us = (value: number) => `${Math.round(value)} µs`;
  const ms = (values: number[]) =>
    `${round(values.reduce((a, b) => a + b, 0) / values.length, 1)} ms (${values.join(', ')})`;
  return [
    '# OAuth to remote servers (bench/oauth-bench.ts)',
    '',
    machineSummary(machineInfo()),
    '',
    `## 1. The OAuth fetch wrapper on a server that never asks for OAuth (${rounds} × ${callsPerRound} calls each, interleaved)`,
    '',
    '| manager | p50 | p90 | p99 |',
    '| --- | --- | --- | --- |',
    `| \`oauth: false\` | ${us(wrapper.without.p50)} | ${us(wrapper.without.p90)} | ${us(wrapper.without.p99)} |`,
    `| wrapper in place | ${us(wrapper.wrapped.p50)} | ${us(wrapper.wrapped.p90)} | ${us(wrapper.wrapped.p99)} |`,
    '',
    `p50 ratio wrapped / without: **${wrapper.ratio}×**`,
    '',
    '## 2. Log-in against oidc-provider, and a start over stored tokens',
    '',
    `- first start (401, discovery, registration, authorization, code exchange, connect, tools/list): ${ms(login.loginMs)}`,
    `- start over the stored tokens (no authorization server request): ${ms(login.storedStartMs)}`,
    `- token endpoint requests in all: ${JSON.stringify(login.tokenRequests)}; registrations: ${login.registrations}`,
    '',
    '## 3. Calls with a bearer token (the server verifies each JWT with jose)',
    '',
    '| call | p50 | p90 | samples |',
    '| --- | --- | --- | --- |',
    `| \`whoami\`, valid token | ${us(login.callWithToken.p50)} | ${us(login.callWithToken.p90)} | ${login.callWithToken.count} |`,
    `| \`whoami\`, expired token (one refresh inside the call) | ${us(login.callWithRefresh.p50)} | ${us(login.callWithRefresh.p90)} | ${login.callWithRefresh.count} |`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(os.tmpdir(), 'search-mcp-oauth-bench-'));
  try {
    log('1/2: the wrapper on a plain server');
    const wrapper = await wrapperOverhead();
    log('2/2: log-in, stored tokens, refresh');
    const login = await withAuthorizationServer(directory);
    const text = markdown(wrapper, login);
    await mkdir(resultsDirectory, { recursive: true });
    await writeFile(
      new URL('oauth.json', resultsDirectory),
      `${JSON.stringify({ machine: machineInfo(), wrapper, login }, null, 2)}\n`,
    );
    await writeFile(new URL('oauth.md', resultsDirectory), text);
    process.stdout.write(text);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
