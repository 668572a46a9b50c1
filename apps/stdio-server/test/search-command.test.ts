import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const memoryServer = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 120_000, env }, (error, stdout, stderr) => {
      const code = error ? (error as { code?: unknown }).code : 0;
      resolve({ code: typeof code === 'number' ? code : -1, stdout, stderr });
    });
  });
}

interface SearchJson {
  strategy: string;
  providerId?: string;
  match: string;
  notice?: string;
  results: Array<{ toolKey: string; relevance: number; explanation?: string }>;
  hybrid?: { ready: boolean; reason?: string };
}

describe('search-mcp search', () => {
  let directory: string;
  let config: string;
  let hybridConfig: string;
  let cacheDirectory: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-search-'));
    cacheDirectory = join(directory, 'vectors');
    const memory = {
      command: process.execPath,
      args: [memoryServer],
      env: { MEMORY_FILE_PATH: join(directory, 'memory.jsonl') },
    };
    config = join(directory, 'config.json');
    await writeFile(config, JSON.stringify({ mcpServers: { memory }, search: { hybrid: { cacheDirectory } } }));
    hybridConfig = join(directory, 'hybrid.json');
    await writeFile(
      hybridConfig,
      JSON.stringify({ mcpServers: { memory }, search: { strategy: 'hybrid', hybrid: { cacheDirectory } } }),
    );
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('says when no tool fits the request, in text and in --json, and says nothing when one does', async () => {
    // Four searches of one config with the default strategy (nothing written): side by side.
    const [text, json, good, goodJsonRun] = await Promise.all([
      runCli(['search', 'send an email to my boss', '--config', config]),
      runCli(['search', 'send an email to my boss', '--json', '--config', config]),
      runCli(['search', 'read graph', '--config', config]),
      runCli(['search', 'read graph', '--json', '--config', config]),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Match: none\. no tool matches 'send an email to my boss'/);
    const report = JSON.parse(json.stdout) as SearchJson;
    expect(report).toMatchObject({ strategy: 'bm25', match: 'none' });
    expect(report.notice).toContain("no tool matches 'send an email to my boss'");
    expect(report.results.every((hit) => hit.relevance < 1)).toBe(true);

    expect(good.stdout).toContain('memory:read_graph');
    expect(good.stdout).not.toContain('Match:');
    const goodJson = JSON.parse(goodJsonRun.stdout);
    expect(goodJson.match).toBe('good');
    expect(goodJson.results[0]).toMatchObject({ toolKey: 'memory:read_graph', relevance: 1 });
    expect(goodJson).not.toHaveProperty('notice');
  });

  it('--strategy hybrid overrides the config, says it builds vectors on the first run, and reads them from the cache after', async () => {
    const first = await runCli([
      'search',
      'remember a fact about a person',
      '--strategy',
      'hybrid',
      '--json',
      '--config',
      config,
    ]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('search-mcp: building the vectors of 9 tools for hybrid search');
    const report = JSON.parse(first.stdout) as SearchJson;
    expect(report).toMatchObject({ strategy: 'hybrid', providerId: 'hybrid', hybrid: { ready: true } });
    // Hybrid's own ranking (BM25 alone has no "meaning" part in its explanation).
    expect(report.results[0]?.explanation).toMatch(/meaning: cosine/);
    expect((await readdir(cacheDirectory)).length).toBeGreaterThan(0);

    const second = await runCli([
      'search',
      'remember a fact about a person',
      '--strategy',
      'hybrid',
      '--config',
      config,
    ]);
    expect(second.stderr).toBe('');
    expect(second.stdout).toContain('9 tools searched (strategy hybrid)');

    // The other way round: a hybrid config searched with BM25 for one run.
    const bm25 = await runCli(['search', 'read graph', '--strategy', 'bm25', '--json', '--config', hybridConfig]);
    expect(JSON.parse(bm25.stdout)).toMatchObject({ strategy: 'bm25', providerId: 'bm25' });
    expect(bm25.stderr).toBe('');
    // Loading the model and embedding takes seconds, more on a loaded 2-core CI machine.
  }, 180_000);

  it('--strategy llm without an API key says why BM25 answers instead', async () => {
    const { OPENAI_API_KEY: _key, OPENAI_BASE_URL: _url, ...env } = process.env;
    const outcome = await runCli(['search', 'read graph', '--strategy', 'llm', '--config', config], env);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('memory:read_graph');
    expect(outcome.stderr).toContain('LLM search is unavailable; searches use the first stage (BM25)');
    expect(outcome.stderr).toContain('OPENAI_API_KEY is not set');
  });

  it('refuses an unknown strategy in one line, before starting anything', async () => {
    expect(await runCli(['search', 'x', '--strategy', 'bm52', '--config', config])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'search-mcp: --strategy must be one of bm25, hybrid, llm, cloud, not "bm52"; did you mean "bm25"?\n' +
        "Run 'search-mcp --help' for usage.\n",
    });
  });
});
