/**
 * Benchmark of the OAuth access-token verifier of `auth.oauth` (apps/http-server/src/access/oauth-resource/, docs/oauth-in-front.md:
 * search-mcp-http as an OAuth-protected resource), in process.
 *
 *   npx -y pnpm@10.34.9 bench:oauth-resource
 *
 * `verify()` of valid RS256 and ES256 JWT access tokens with a warm JWKS (keys fetched once, before the measured
 * rounds, from a small node:http issuer on loopback), against the same loop over the static-token check every request
 * already pays (`TokenVerifier`, apps/http-server/src/access/token-verifier.ts). Two cases per algorithm:
 *   - the same token again and again, as a client sends it with every request for its whole life: after the first
 *     check it comes from the verifier's verified-token cache (SHA-256 and a lookup, at most 60 s);
 *   - a token never seen before (a distinct, pre-signed token each time): the full check, the signature checked
 *     synchronously with node:crypto (jws-signature.ts) included, the cost of the first request with each new token.
 * For reference, jose's `jwtVerify` alone with the public key in hand (its signature check goes through WebCrypto
 * and the libuv thread pool): what the full check cost when jose checked the signature.
 * The five loops run interleaved, round by round, the order rotated each round, so drift on the shared machine hits
 * all alike. The 0.2 ms goal: verification adds ≤ 0.2 ms p50 per request (the OAuth p50 minus the static p50). The
 * issuer's metadata and JWKS requests are counted: a warm cache makes none during the rounds.
 *
 * Second part, over HTTP (bench/oauth-resource-over-http.ts): the same bar on a whole request through the app on
 * 127.0.0.1, `GET /v1/tools?limit=1` and an MCP `tools/list`, with the static token, one JWT again and again, and a
 * JWT never seen each time, sequential on one keep-alive connection, interleaved.
 *
 * Writes bench/results/oauth-resource.json and .md and prints the markdown to stdout. Progress goes to stderr.
 * Env: OAUTH_RESOURCE_BENCH_ROUNDS (default 10), OAUTH_RESOURCE_BENCH_VERIFIES (per round and case, default 1000),
 * OAUTH_RESOURCE_BENCH_HTTP_REQUESTS (HTTP requests per round and case, default 300).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { createOAuthTokenVerifier } from '../apps/http-server/src/access/oauth-resource/index.js';
import {
  joseAlone,
  type SigningKey,
  signingKey,
  startTestIssuer,
  testAudience,
} from '../apps/http-server/src/access/oauth-resource/oauth-resource-test-support.js';
import { TokenVerifier } from '../apps/http-server/src/access/token-verifier.js';
import {
  loadAverage,
  machineInfo,
  machineSummary,
  percentile,
  progressLog,
  round,
  roundSummary,
  type Summary,
  summarize,
} from './src/bench-support.js';
import { measureOverHttp, type OverHttpResults, overHttpMarkdown } from './oauth-resource-over-http.js';

const log = progressLog('oauth-resource-bench');
const rounds = Number(process.env.OAUTH_RESOURCE_BENCH_ROUNDS ?? 10);
const verifiesPerRound = Number(process.env.OAUTH_RESOURCE_BENCH_VERIFIES ?? 1000);
const httpRequestsPerRound = Number(process.env.OAUTH_RESOURCE_BENCH_HTTP_REQUESTS ?? 300);
const resultsDirectory = new URL('./results/', import.meta.url);
const goalAddedP50Us = 200;

const kinds = [
  'static',
  'RS256 repeated',
  'ES256 repeated',
  'RS256 first sight',
  'ES256 first sight',
  'RS256 jose alone',
  'ES256 jose alone',
] as const;
type Kind = (typeof kinds)[number];
const oauthKinds = kinds.filter((kind) => kind !== 'static');

interface CaseSummary extends Summary {
  p95: number;
}

function summarizeWithP95(values: number[]): CaseSummary {
  const sorted = [...values].sort((a, b) => a - b);
  return { ...roundSummary(summarize(sorted)), p95: round(percentile(sorted, 95)) };
}

async function main(): Promise<void> {
  const machine = machineInfo();
  const issuer = await startTestIssuer({ keys: [await signingKey('rsa', 'RS256'), await signingKey('ec', 'ES256')] });
  try {
    const verifier = createOAuthTokenVerifier({
      issuer: issuer.issuer,
      audiences: [testAudience],
      requiredScopes: ['mcp:read'],
    });
    // Tokens as a real issuer sends them: at+jwt, a scope, a client, an hour of life; `jti` makes each one distinct.
    const claims = { scope: 'mcp:read mcp:write', client_id: 'inspector', exp: Math.floor(Date.now() / 1000) + 3600 };
    const [rsaKey, ecKey] = issuer.published;
    const repeated = { RS256: await issuer.sign(claims, rsaKey), ES256: await issuer.sign(claims, ecKey) };
    const total = rounds * verifiesPerRound + 500;
    log(`signing ${total} distinct RS256 and ES256 tokens`);
    const fresh = { RS256: [] as string[], ES256: [] as string[] };
    for (let index = 0; index < total; index += 1) {
      fresh.RS256.push(await issuer.sign({ ...claims, jti: `r${index}` }, rsaKey));
      fresh.ES256.push(await issuer.sign({ ...claims, jti: `e${index}` }, ecKey));
    }
    const next = { RS256: 0, ES256: 0 };
    const firstSight = async (algorithm: 'RS256' | 'ES256') => {
      const token = fresh[algorithm][next[algorithm]++] as string;
      return (await verifier.verify(token)).valid;
    };

    // The static check as configured with a handful of tokens; the presented one is the last (every entry compared).
    const staticTokens = Array.from({ length: 3 }, (_, index) => ({
      id: `t${index}`,
      token: `static-token-${index}-${'x'.repeat(32)}`,
    }));
    const staticVerifier = new TokenVerifier(staticTokens);
    const rsaAlone = await joseAlone(rsaKey as SigningKey, issuer.issuer);
    const ecAlone = await joseAlone(ecKey as SigningKey, issuer.issuer);
    const staticToken = staticTokens[2]?.token as string;

    const once: Record<Kind, () => Promise<boolean>> = {
      static: async () => staticVerifier.verify(staticToken) !== undefined,
      'RS256 repeated': async () => (await verifier.verify(repeated.RS256)).valid,
      'ES256 repeated': async () => (await verifier.verify(repeated.ES256)).valid,
      'RS256 first sight': () => firstSight('RS256'),
      'ES256 first sight': () => firstSight('ES256'),
      // jose's signature (WebCrypto) and claim checks alone, with the key in hand (no cache, no policy, no lookup).
      'RS256 jose alone': () => rsaAlone(repeated.RS256),
      'ES256 jose alone': () => ecAlone(repeated.ES256),
    };
    // Warm-up: discovery, the JWKS, jose's key import and the JIT.
    for (const kind of kinds)
      for (let index = 0; index < 100; index += 1)
        if (!(await once[kind]())) throw new Error(`the ${kind} token does not verify`);
    const warmRequests = requestCounts(issuer.requests);

    const samples = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
    for (let roundIndex = 0; roundIndex < rounds; roundIndex += 1) {
      const shift = roundIndex % kinds.length;
      for (const kind of [...kinds.slice(shift), ...kinds.slice(0, shift)]) {
        const check = once[kind];
        const into = samples[kind];
        for (let index = 0; index < verifiesPerRound; index += 1) {
          const started = performance.now();
          const valid = await check();
          into.push((performance.now() - started) * 1000);
          if (!valid) throw new Error(`the ${kind} token stopped verifying`);
        }
      }
      log(`round ${roundIndex + 1}/${rounds}`);
    }
    const afterRequests = requestCounts(issuer.requests);
    const overHttp = await measureOverHttp(issuer, { rounds, requestsPerRound: httpRequestsPerRound, log });

    const microseconds = Object.fromEntries(kinds.map((kind) => [kind, summarizeWithP95(samples[kind])])) as Record<
      Kind,
      CaseSummary
    >;
    const addedP50Us = Object.fromEntries(
      oauthKinds.map((kind) => [kind, round(microseconds[kind].p50 - microseconds.static.p50, 1)]),
    ) as Record<Kind, number>;
    machine.loadAverageAtEnd = loadAverage();
    const results = {
      machine,
      rounds,
      verifiesPerRound,
      microseconds,
      addedP50Us,
      goalAddedP50Us,
      issuerRequests: { warmUp: warmRequests, duringRounds: diff(afterRequests, warmRequests) },
      overHttp,
    };
    const text = markdown(results);
    await mkdir(resultsDirectory, { recursive: true });
    await writeFile(new URL('oauth-resource.json', resultsDirectory), `${JSON.stringify(results, null, 2)}\n`);
    await writeFile(new URL('oauth-resource.md', resultsDirectory), text);
    process.stdout.write(text);
  } finally {
    await issuer.close();
  }
}

function requestCounts(requests: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...requests].sort(([a], [b]) => a.localeCompare(b)));
}

function diff(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([path, count]) => [path, count - (before[path] ?? 0)]));
}

const labels: Record<Kind, string> = {
  static: 'static token (`TokenVerifier`, 3 tokens)',
  'RS256 repeated': 'OAuth JWT RS256 (2048-bit), same token again (verified-token cache)',
  'ES256 repeated': 'OAuth JWT ES256, same token again (verified-token cache)',
  'RS256 first sight': 'OAuth JWT RS256 (2048-bit), a token never seen (full check)',
  'ES256 first sight': 'OAuth JWT ES256, a token never seen (full check)',
  'RS256 jose alone': 'for reference: jose `jwtVerify` alone, RS256, key in hand',
  'ES256 jose alone': 'for reference: jose `jwtVerify` alone, ES256, key in hand',
};

function markdown(results: {
  machine: ReturnType<typeof machineInfo>;
  microseconds: Record<Kind, CaseSummary>;
  addedP50Us: Record<Kind, number>;
  issuerRequests: { warmUp: Record<string, number>; duringRounds: Record<string, number> };
  overHttp: OverHttpResults;
}): string {
  const us = (value: number) => `${round(value, 1)} µs`;
  const verdict = (value: number) => (value <= goalAddedP50Us ? 'met' : '**not met**');
  const requestsDuring = Object.values(results.issuerRequests.duringRounds).reduce((sum, count) => sum + count, 0);
  return [
    '# OAuth access-token verification (bench/oauth-resource-bench.ts)',
    '',
    `${machineSummary(results.machine)} · load ${results.machine.loadAverageAtStart.join(' ')} → ${results.machine.loadAverageAtEnd?.join(' ')}`,
    '',
    `\`verify()\` with a warm JWKS, ${rounds} interleaved rounds × ${verifiesPerRound} verifies per case, in process (no HTTP), \`requiredScopes\` set. Added p50 = the case's p50 minus the static check's p50 (goal ≤ ${goalAddedP50Us} µs):`,
    '',
    '| check | p50 | p95 | p99 | added p50 | verifies |',
    '| --- | --- | --- | --- | --- | --- |',
    ...kinds.map((kind) => {
      const summary = results.microseconds[kind];
      const measured = labels[kind].startsWith('OAuth');
      const added = measured ? `${us(results.addedP50Us[kind])} (${verdict(results.addedP50Us[kind])})` : '';
      return `| ${labels[kind]} | ${us(summary.p50)} | ${us(summary.p95)} | ${us(summary.p99)} | ${added} | ${summary.count} |`;
    }),
    '',
    `Issuer requests: during warm-up ${JSON.stringify(results.issuerRequests.warmUp)}; during the measured rounds ${requestsDuring}.`,
    '',
    ...overHttpMarkdown(results.overHttp, goalAddedP50Us),
  ].join('\n');
}

await main();
