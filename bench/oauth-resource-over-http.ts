/**
 * The HTTP part of bench/oauth-resource-bench.ts: what `auth.oauth` adds to a whole request through the app, not
 * only to `verify()`. `buildHttpApp` (apps/http-server/src/http-app.ts) is built the way bench/http-bench-server.ts
 * builds it, without backends (one in-process registry tool is enough), with a static token AND `auth.oauth` (the
 * test issuer, `publicUrl` https://search.example so the resource is the tokens' audience), the rate limit off,
 * listening on 127.0.0.1.
 *
 * One client (node's fetch, keep-alive) sends the requests one after another, so they ride a kept-alive connection
 * (the app's connection count is recorded to show that none is opened during the rounds). Per route, three ways to authenticate:
 *   - the static token (the baseline: the static check runs first for every bearer token);
 *   - one OAuth JWT again and again, as a client sends it: keys and the verified-token cache warm;
 *   - a JWT never seen before each time (pre-signed, distinct `jti`): keys warm, the full signature check every time.
 * Routes: `GET /v1/tools?limit=1` (REST) and `tools/list` over `/mcp` in a 2025-06-18 session (one session per
 * principal; the session is bound to the token id, `oauth:<subject>` for every JWT of a subject, so a fresh JWT of
 * the same subject rides the JWT session). The cases run interleaved, round by round, the order rotated each round.
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createSearchMcpRuntime } from '@search-mcp/runtime';
import { parseConfig, silentLogger } from '@search-mcp/shared';
// The HTTP app has no library entry (its package ships only the binary), so the bench runs its source through tsx.
import { buildHttpApp } from '../apps/http-server/src/http-app.js';
import type { TestIssuer } from '../apps/http-server/src/access/oauth-resource/oauth-resource-test-support.js';
import { echoRegistry } from './http-bench-server.js';
import { percentile, round, roundSummary, type Summary, summarize } from './src/bench-support.js';

const staticToken = 'bench-token-0123456789-abcdefghijklmnop';
/** The resource is `<publicUrl>/mcp`: the test issuer's default audience (`testAudience`). */
const publicUrl = 'https://search.example';
const protocolVersion = '2025-06-18';

export const httpRoutes = ['REST', 'MCP'] as const;
export type HttpRoute = (typeof httpRoutes)[number];
export const httpCredentials = ['static', 'JWT repeated', 'JWT first sight'] as const;
export type HttpCredential = (typeof httpCredentials)[number];
type HttpCase = `${HttpRoute} ${HttpCredential}`;

export interface HttpCaseSummary extends Summary {
  p95: number;
}

export interface OverHttpResults {
  rounds: number;
  requestsPerRound: number;
  /** Per case (`<route> <credential>`), milliseconds. */
  milliseconds: Record<string, HttpCaseSummary>;
  /** Per JWT case: its p50 minus the same route's static p50, in µs. */
  addedP50Us: Record<string, number>;
  /** Connections the app accepted in all (node's fetch opens a second one while the two sessions are opened). */
  connections: number;
  /** Of them, opened during the measured rounds (0 expected). */
  connectionsDuringRounds: number;
  issuerRequestsDuringRounds: number;
}

const requestCount = (issuer: TestIssuer) => [...issuer.requests.values()].reduce((sum, count) => sum + count, 0);

export async function measureOverHttp(
  issuer: TestIssuer,
  options: { rounds: number; requestsPerRound: number; log: (message: string) => void },
): Promise<OverHttpResults> {
  const { rounds, requestsPerRound, log } = options;
  const config = parseConfig({ mcpServers: {}, auth: { tokens: [{ id: 'bench', token: staticToken }] } });
  const registry = echoRegistry();
  const runtime = createSearchMcpRuntime({ config, logger: silentLogger, registries: [registry] });
  const http = await buildHttpApp({
    runtime,
    logger: silentLogger,
    tokens: config.auth.tokens,
    allowAnonymous: false,
    version: 'bench',
    rateLimitPerMinute: 0,
    oauth: { issuer: issuer.issuer, requiredScopes: ['mcp:read'] },
    publicUrl,
  });
  let connections = 0;
  http.app.server.on('connection', () => {
    connections += 1;
  });
  await http.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(http.app.server.address() as AddressInfo).port}`;
  try {
    // RS256 (2048-bit), the issuer's default key and the common algorithm; an hour of life, a subject, a scope.
    const claims = {
      sub: 'alice',
      scope: 'mcp:read',
      client_id: 'inspector',
      exp: Math.floor(Date.now() / 1000) + 3600,
    };
    const repeated = await issuer.sign(claims);
    const total = (rounds * requestsPerRound + 100) * httpRoutes.length;
    log(`HTTP: signing ${total} distinct RS256 tokens`);
    const fresh: string[] = [];
    for (let index = 0; index < total; index += 1) fresh.push(await issuer.sign({ ...claims, jti: `h${index}` }));
    let nextFresh = 0;
    const firstSight = () => fresh[nextFresh++] as string;

    const sessions = { static: await openSession(base, staticToken), jwt: await openSession(base, repeated) };
    const rest = async (token: string) => {
      const response = await fetch(`${base}/v1/tools?limit=1`, { headers: { authorization: `Bearer ${token}` } });
      const text = await response.text();
      return response.status === 200 && text.includes('local:echo');
    };
    let id = 1;
    const toolsList = async (token: string, sessionId: string) => {
      const response = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { ...mcpHeaders(token), 'mcp-session-id': sessionId },
        body: JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/list', params: {} }),
      });
      const text = await response.text();
      return response.status === 200 && text.includes('"tools"');
    };
    const once: Record<HttpCase, () => Promise<boolean>> = {
      'REST static': () => rest(staticToken),
      'REST JWT repeated': () => rest(repeated),
      'REST JWT first sight': () => rest(firstSight()),
      'MCP static': () => toolsList(staticToken, sessions.static),
      'MCP JWT repeated': () => toolsList(repeated, sessions.jwt),
      'MCP JWT first sight': () => toolsList(firstSight(), sessions.jwt),
    };
    const cases = Object.keys(once) as HttpCase[];
    // Warm-up: the JIT, the connection, the keys (fetched by the sessions' initialize already).
    for (const name of cases)
      for (let index = 0; index < 100 / (name.endsWith('first sight') ? 2 : 1); index += 1)
        if (!(await once[name]())) throw new Error(`HTTP: ${name} is refused`);
    const connectionsBefore = connections;
    const issuerBefore = requestCount(issuer);

    const samples = Object.fromEntries(cases.map((name) => [name, [] as number[]])) as Record<HttpCase, number[]>;
    for (let roundIndex = 0; roundIndex < rounds; roundIndex += 1) {
      const shift = roundIndex % cases.length;
      for (const name of [...cases.slice(shift), ...cases.slice(0, shift)]) {
        const send = once[name];
        const into = samples[name];
        for (let index = 0; index < requestsPerRound; index += 1) {
          const started = performance.now();
          const ok = await send();
          into.push(performance.now() - started);
          if (!ok) throw new Error(`HTTP: ${name} stopped being served`);
        }
      }
      log(`HTTP round ${roundIndex + 1}/${rounds}`);
    }

    const milliseconds: Record<string, HttpCaseSummary> = {};
    const p50 = {} as Record<HttpCase, number>;
    for (const name of cases) {
      const sorted = [...samples[name]].sort((a, b) => a - b);
      const summary = summarize(sorted);
      p50[name] = summary.p50;
      milliseconds[name] = { ...roundSummary(summary), p95: round(percentile(sorted, 95)) };
    }
    // From the unrounded medians.
    const addedP50Us: Record<string, number> = {};
    for (const route of httpRoutes)
      for (const credential of httpCredentials.slice(1)) {
        const name: HttpCase = `${route} ${credential}`;
        addedP50Us[name] = round((p50[name] - p50[`${route} static`]) * 1000, 1);
      }
    return {
      rounds,
      requestsPerRound,
      milliseconds,
      addedP50Us,
      connections,
      connectionsDuringRounds: connections - connectionsBefore,
      issuerRequestsDuringRounds: requestCount(issuer) - issuerBefore,
    };
  } finally {
    await http.close();
    await runtime.close();
  }
}

const mcpHeaders = (token: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': protocolVersion,
});

/** A 2025-06-18 session opened with `token` (initialize, then notifications/initialized). */
async function openSession(base: string, token: string): Promise<string> {
  const init = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: mcpHeaders(token),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'oauth-resource-bench', version: '0' } },
    }),
  });
  const text = await init.text();
  const sessionId = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !sessionId) throw new Error(`initialize: ${init.status} ${text.slice(0, 300)}`);
  const initialized = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { ...mcpHeaders(token), 'mcp-session-id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.text();
  if (initialized.status !== 202) throw new Error(`notifications/initialized: ${initialized.status}`);
  return sessionId;
}

const httpLabels: Record<HttpCredential, string> = {
  static: 'static token',
  'JWT repeated': 'OAuth JWT RS256, same token again (warm: keys and verified-token cache)',
  'JWT first sight': 'OAuth JWT RS256, a token never seen (keys warm, full check)',
};

/** The markdown section of the HTTP part. */
export function overHttpMarkdown(results: OverHttpResults, goalAddedP50Us: number): string[] {
  const ms = (value: number | undefined) => `${round(value ?? Number.NaN, 3)} ms`;
  const verdict = (value: number) => (value <= goalAddedP50Us ? 'met' : '**not met**');
  const routeLabel: Record<HttpRoute, string> = {
    REST: '`GET /v1/tools?limit=1`',
    MCP: '`/mcp` `tools/list` (2025-06-18 session)',
  };
  return [
    '## Over HTTP: a whole request through the app',
    '',
    `\`buildHttpApp\` on 127.0.0.1 with a static token and \`auth.oauth\` (no backends, one in-process tool, rate limit off); one client (node fetch) sends the requests one after another over keep-alive (the app accepted ${results.connections} connection(s) in all, while the two MCP sessions were opened, and ${results.connectionsDuringRounds} during the rounds: every measured request reused a kept-alive connection), ${results.rounds} interleaved rounds × ${results.requestsPerRound} requests per case. Client and app share one process (and its event loop), as in \`http-bench.ts\`'s in-process mode; latency as the client sees it. Added p50 = the case's p50 minus the same route's static-token p50 (goal ≤ ${goalAddedP50Us} µs):`,
    '',
    '| request | token | p50 | p95 | p99 | added p50 | requests |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...httpRoutes.flatMap((route) =>
      httpCredentials.map((credential) => {
        const name = `${route} ${credential}`;
        const summary = results.milliseconds[name] as HttpCaseSummary;
        const added = results.addedP50Us[name];
        const cell = added === undefined ? '' : `${added} µs (${verdict(added)})`;
        return `| ${routeLabel[route]} | ${httpLabels[credential]} | ${ms(summary.p50)} | ${ms(summary.p95)} | ${ms(summary.p99)} | ${cell} | ${summary.count} |`;
      }),
    ),
    '',
    'A client pays the "never seen" row on its first request with each new access token (and once more each time the verified-token cache lets it go, after at most 60 s); its other requests pay the warm row.',
    '',
    `Issuer requests during the measured rounds: ${results.issuerRequestsDuringRounds}.`,
    '',
  ];
}
