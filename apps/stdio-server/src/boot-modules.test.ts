import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LineSplitter } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What the built `search-mcp` imports before it answers: `--version` and `--help` nothing of the runtime, and `serve`
 * not the modules of the other commands (the tokenizer and the 1.x SDK client of `doctor`, the client files of
 * `init`), nor the 1.x SDK's client before a backend connects. A loader hook (`module.register`) writes the URL of
 * every ES module as it loads; the list is read when the answer arrives. Speed itself is measured in benchmarks;
 * this only keeps the cheap path from growing back.
 */
const appDirectory = fileURLToPath(new URL('..', import.meta.url));
const cliPath = join(appDirectory, 'dist', 'cli.js');
const slowServer = fixtureServerPath('stdio-fixture-server.mjs');
const deadlineMs = 30_000;

let directory: string;
let registerPath: string;
let configPath: string;
let idleConfigPath: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-boot-modules-'));
  await writeFile(
    join(directory, 'hooks.mjs'),
    "import { appendFileSync } from 'node:fs';\n" +
      'export async function load(url, context, next) {\n' +
      '  const result = await next(url, context);\n' +
      '  appendFileSync(process.env.LOADED_MODULES_FILE, `${url}\\n`);\n' +
      '  return result;\n' +
      '}\n',
  );
  registerPath = join(directory, 'register.mjs');
  await writeFile(registerPath, "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
  configPath = join(directory, 'config.json');
  // A backend that never gets ready: the answer must not depend on it.
  await writeFile(
    configPath,
    JSON.stringify({
      mcpServers: { slow: { command: process.execPath, args: [slowServer, '--startup-delay-ms', '60000'] } },
    }),
  );
  // No backend connects: any enabled one loads the 1.x SDK client in the background at once, racing the answer.
  idleConfigPath = join(directory, 'idle-config.json');
  await writeFile(
    idleConfigPath,
    JSON.stringify({
      mcpServers: { off: { command: process.execPath, args: [slowServer], enabled: false } },
    }),
  );
});

afterAll(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
});

function startCli(args: string[], modulesFile: string): ChildProcess {
  return spawn(process.execPath, ['--import', registerPath, cliPath, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, LOADED_MODULES_FILE: modulesFile, SEARCH_MCP_INSTRUCTIONS_WAIT_MS: '0' },
  });
}

/**
 * The CLI is one bundle (README, "How it is built"): a loaded chunk stands for every module esbuild put into it. Its
 * metafile maps each output to its inputs (paths from this app's folder), so the checks below read the modules a
 * command really loaded, as URLs like those of an unbundled build.
 */
const bundleInputs: ReadonlyMap<string, readonly string[]> = (() => {
  const metafile = JSON.parse(readFileSync(join(appDirectory, 'dist', 'metafile-esm.json'), 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, unknown> }>;
  };
  return new Map(
    Object.entries(metafile.outputs).map(([output, { inputs }]) => [
      pathToFileURL(join(appDirectory, output)).href,
      Object.keys(inputs).map((input) => pathToFileURL(realpathSync(join(appDirectory, input))).href),
    ]),
  );
})();

/** Every module loaded so far: each file Node loaded, and for a chunk of the bundle, the modules inside it. */
async function loadedModules(modulesFile: string): Promise<string[]> {
  const files = (await readFile(modulesFile, 'utf8')).split('\n').filter((line) => line !== '');
  return files.flatMap((url) => [url, ...(bundleInputs.get(url) ?? [])]);
}

/** Modules no command needs before it starts work: the runtime's, the SDKs', ajv, the tokenizer. */
const heavy = [
  '/packages/runtime/',
  '/packages/client-manager/',
  '/packages/catalog/',
  '@modelcontextprotocol/',
  '/ajv',
  '@anthropic-ai/tokenizer',
];
/**
 * The client manager's `prestart` entry and the chunks it imports (Node built-ins only): loaded first by every command,
 * since `call` spawns its server with it before anything else loads.
 */
const prestartEntry = new URL('../node_modules/@search-mcp/client-manager/dist/prestart.js', import.meta.url);
const prestartFiles = new Set(
  [
    prestartEntry,
    ...[...readFileSync(prestartEntry, 'utf8').matchAll(/from "\.\/(chunk-[\w-]+\.js)"/g)].map(
      (match) => new URL(`./${match[1]}`, prestartEntry),
    ),
  ].map((url) => pathToFileURL(realpathSync(url)).href),
);

/** The chunks of the commands `serve` does not run (tsup names a chunk after its entry's file). */
const otherCommands = ['doctor-command-', 'init-command-', 'search-command-', 'list-command-', 'call-command-'];

describe('modules loaded before the first answer', () => {
  for (const flag of ['--version', '--help']) {
    it(`${flag} loads nothing of the runtime, the SDKs or any command`, async () => {
      const modulesFile = join(directory, `modules${flag}.txt`);
      const child = startCli([flag], modulesFile);
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      const modules = await loadedModules(modulesFile);
      expect(modules.some((url) => url.endsWith('/dist/cli.js'))).toBe(true);
      expect(
        modules.filter(
          (url) => [...heavy, ...otherCommands].some((part) => url.includes(part)) && !prestartFiles.has(url),
        ),
      ).toEqual([]);
    });
  }

  it('serve answers initialize and tools/list without the other commands, the tokenizer or Redis', async () => {
    const { toolsList, modulesAtToolsList } = await serveUntilToolsList(configPath, 'modules-serve.txt');
    expect(toolsList).toMatchObject({ tools: expect.any(Array) });
    expect(modulesAtToolsList.some((url) => url.includes('serve-command-'))).toBe(true);
    // ioredis only for a replica with `cluster` (search-mcp-http): the stdio app never talks to Redis.
    expect(
      modulesAtToolsList.filter((url) =>
        [...otherCommands, '@anthropic-ai/tokenizer', '/ioredis/'].some((part) => url.includes(part)),
      ),
    ).toEqual([]);
  }, 60_000);

  it('serve answers initialize without the 1.x SDK client (it loads on the first connect of a backend)', async () => {
    const { modulesAtInitialize, modulesAtToolsList } = await serveUntilToolsList(idleConfigPath, 'modules-idle.txt');
    // The client manager itself is loaded: the check below is about what it imports, not about its absence.
    expect(modulesAtInitialize.some((url) => url.includes('/packages/client-manager/dist/index.js'))).toBe(true);
    const legacyClient = (url: string) =>
      url.includes('@modelcontextprotocol/sdk/dist/esm/client/') || url.includes('legacy-client-module-');
    expect(modulesAtInitialize.filter(legacyClient)).toEqual([]);
    expect(modulesAtToolsList.filter(legacyClient)).toEqual([]);
  }, 60_000);
});

interface ServeAnswers {
  toolsList: unknown;
  /** The modules loaded when the `initialize` answer arrived. */
  modulesAtInitialize: string[];
  /** The modules loaded when the `tools/list` answer arrived (what loads later, such as the first search, may). */
  modulesAtToolsList: string[];
}

async function serveUntilToolsList(config: string, modulesFileName: string): Promise<ServeAnswers> {
  const modulesFile = join(directory, modulesFileName);
  const child = startCli(['serve', '--config', config, '--log-level', 'warn', '--no-watch'], modulesFile);
  child.stderr?.resume();
  const exited = once(child, 'exit');
  try {
    return await new Promise<ServeAnswers>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no tools/list answer in time')), deadlineMs);
      let modulesAtInitialize: Promise<string[]> | undefined;
      const splitter = new LineSplitter({
        onLine: (line) => {
          const message = JSON.parse(line) as { id?: number; result?: unknown };
          if (message.id === 1) {
            modulesAtInitialize = loadedModules(modulesFile);
            child.stdin?.write(
              '{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n',
            );
          } else if (message.id === 2) {
            clearTimeout(timer);
            const toolsList = message.result;
            Promise.all([
              modulesAtInitialize ?? Promise.reject(new Error('tools/list before initialize')),
              loadedModules(modulesFile),
            ])
              .then(([atInitialize, atToolsList]) =>
                resolve({ toolsList, modulesAtInitialize: atInitialize, modulesAtToolsList: atToolsList }),
              )
              .catch(reject);
          }
        },
      });
      child.stdout?.on('data', (chunk: Buffer) => splitter.push(chunk));
      child.on('exit', () => reject(new Error('search-mcp exited before answering')));
      child.stdin?.write(
        `${JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'boot-test', version: '0' } },
        })}\n`,
      );
    });
  } finally {
    child.stdin?.end();
    await exited;
  }
}
