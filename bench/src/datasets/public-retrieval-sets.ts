/**
 * The public tool-retrieval sets (LiveMCPBench, ToolLens, Seal-Tools), normalized to one format: a folder per set
 * with `tools.json` (`DatasetTool[]`), `queries.json` (`DatasetQuery[]`, gold as `server.name`) and `SOURCE.md` (where
 * the set comes from and how it was normalized). They are not in the repository (ToolLens states no licence): they
 * are read from $SEARCH_BENCH_DATA, default ../shared/bench beside the clone (bench/README.md). A missing set is
 * skipped with a note on where to get it, and the benchmark runs the rest.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Dataset, type DatasetQuery, type DatasetTool, toCatalog } from './dataset-catalog.js';

/** Where each public set comes from (its SOURCE.md, when present, says how it was normalized). */
export const publicSets = {
  livemcpbench: 'https://github.com/icip-cas/LiveMCPBench (tools/LiveMCPTool/tools.json, annotated_data/)',
  toollens: 'https://github.com/quchangle1/COLT (datasets/ToolLens; no licence: never commit it)',
  'seal-tools': 'https://github.com/fairyshine/Seal-Tools (Seal-Tools_Dataset/)',
} as const;

export type PublicSet = keyof typeof publicSets;

/** The folder of the public sets; a folder holding `bench/` (the shared checkout itself) works too. */
export const publicSetsDirectory = ((): string => {
  const given = process.env['SEARCH_BENCH_DATA'] ?? fileURLToPath(new URL('../../../../shared/bench', import.meta.url));
  return existsSync(join(given, 'bench', 'livemcpbench')) ? join(given, 'bench') : given;
})();

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/**
 * A public set with every gold id turned into a tool key, or undefined (after saying on `log` where to get it) when
 * its files are not there. A gold id that is no tool of the set throws: a set that drifted from its tools would
 * otherwise score silently lower.
 */
export function loadPublicSet(name: PublicSet, log: (message: string) => void): Dataset | undefined {
  const directory = join(publicSetsDirectory, name);
  if (!existsSync(join(directory, 'tools.json')) || !existsSync(join(directory, 'queries.json'))) {
    log(
      `${name}: not found in ${directory}. Get it from ${publicSets[name]}, normalized to tools.json / queries.json as ` +
        'its SOURCE.md describes, and point SEARCH_BENCH_DATA at the folder holding the sets. Running the rest.',
    );
    return undefined;
  }
  const source = readJson<DatasetTool[]>(join(directory, 'tools.json'));
  const queries = readJson<DatasetQuery[]>(join(directory, 'queries.json'));
  const catalog = toCatalog(source);
  const toKey = (query: DatasetQuery, id: string): string => {
    const key = catalog.keyOf.get(id);
    if (key === undefined) throw new Error(`${name}: gold ${id} of ${query.id} is not a tool`);
    return key;
  };
  for (const query of queries) {
    query.gold = query.gold.map((id) => toKey(query, id));
    if (query.gold_groups) query.gold_groups = query.gold_groups.map((group) => group.map((id) => toKey(query, id)));
  }
  return { tools: catalog.tools, queries, source };
}
