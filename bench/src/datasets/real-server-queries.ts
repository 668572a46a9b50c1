/**
 * Our own search queries over the 22 recorded real servers (bench/queries/README.md): the tools come from the one
 * loader of `fixtures/real-servers` (`@search-mcp/test-kit/real-servers`), the queries from
 * bench/queries/real-servers.json (gold: tool keys), the held-out requests' phrasings from
 * bench/queries/real-servers-phrasings.json.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadRealServerTools } from '@search-mcp/test-kit/real-servers';
import type { Dataset, DatasetQuery } from './dataset-catalog.js';

const queriesDirectory = fileURLToPath(new URL('../../queries/', import.meta.url));

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** The 237 real tools and our queries over them; a gold key that is no tool throws (the file drifted). */
export function loadRealServers(): Dataset {
  const tools = loadRealServerTools();
  const source = tools.map((tool) => ({
    server: tool.serverName,
    name: tool.toolName,
    description: tool.description,
    inputSchema: tool.inputSchema,
  }));
  const keys = new Set(tools.map((tool) => tool.toolKey));
  const { queries } = readJson<{ queries: DatasetQuery[] }>(`${queriesDirectory}real-servers.json`);
  for (const query of queries) {
    for (const key of query.gold) if (!keys.has(key)) throw new Error(`real-servers: unknown gold ${key}`);
  }
  return { tools, queries, source };
}

/**
 * Model-style phrasings of the held-out requests (2–4 short phrasings of the action in tool words, as
 * `tool_discovery`'s description asks), keyed by query id.
 */
export function loadPhrasings(): Map<string, string[]> {
  const { phrasings } = readJson<{ phrasings: Record<string, string[]> }>(
    `${queriesDirectory}real-servers-phrasings.json`,
  );
  return new Map(Object.entries(phrasings));
}

/**
 * Multi-query requests with a known answer: query i and query i + n/2 of the same language as one request's
 * `queries`, gold = both golds. Checks that fusion keeps the tools of every query near the top.
 */
export function pairQueries(queries: readonly DatasetQuery[]): DatasetQuery[] {
  const pairs: DatasetQuery[] = [];
  for (const lang of ['en', 'ja']) {
    const list = queries.filter((query) => query.lang === lang);
    const half = Math.floor(list.length / 2);
    for (let i = 0; i < half; i++) {
      const a = list[i] as DatasetQuery;
      const b = list[i + half] as DatasetQuery;
      pairs.push({
        id: `${a.id}+${b.id}`,
        query: `${a.query} / ${b.query}`,
        steps: [a.query, b.query],
        gold: [...a.gold, ...b.gold],
        lang,
      });
    }
  }
  return pairs;
}
