/**
 * Where the fixture MCP servers of this folder are, and how to start them. Tests spawn them as processes
 * (`node <path> …flags`), so what a test needs is a path; each script's header comment lists its flags.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureScriptsDirectory } from './fixture-server-bundles.js';

/** The fixture servers, by file name (each script's header comment says what it does and lists its flags). */
export const fixtureServerNames = [
  'exit-immediately-server.mjs', // fails at start, as a server with a missing credential does
  'exits-on-unknown-request.mjs', // a 2025 stdio server that exits on a first request other than `initialize`
  'feature-server.mjs', // resources, prompts, completions, logging, reverse requests, `_meta` (1.x SDK, stdio)
  'leaky-server.mjs', // prints its credential (`LEAKY_TOKEN`) everywhere
  'modern-server.mjs', // 2.x SDK, 2026-07-28 (`--both` both eras, `--http` Streamable HTTP, `--tasks`)
  'raw-http-server.mjs', // hand-written Streamable HTTP: answers as an SDK server never would
  'raw-reply-server.mjs', // hand-written stdio: malformed replies, wrong shapes, floods
  'sandbox-probe-server.mjs', // tries to read, write, connect and see processes; reports each errno (sandboxes)
  'silent-server.mjs', // never answers, not even `initialize`
  'slow-server.mjs', // `wait {ms}` with progress and cancellation events, credential leaks (`--stubborn`)
  'stdio-fixture-server.mjs', // the tool fixture over stdio (slow start, garbage, pages, stubborn, grandchildren …)
  'wrapper-server.mjs', // a launcher that ignores SIGTERM and does not pass it on
] as const;

export type FixtureServerName = (typeof fixtureServerNames)[number];

/** The folder holding the fixture servers' sources (absolute path). */
export const fixtureServersDirectory = fileURLToPath(new URL('./', import.meta.url));

/** Where this package's build writes each fixture server bundled into one file (tsup.config.ts). */
const fixtureBundlesDirectory = fileURLToPath(new URL('../../dist/fixture-servers/', import.meta.url));

/**
 * The absolute path of one fixture server, to spawn it with `process.execPath`: its bundle while the bundles are
 * newer than every source, else its source (fixture-server-bundles.ts). Either file has the fixture's name.
 */
export function fixtureServerPath(name: FixtureServerName): string {
  return join(fixtureScriptsDirectory(fixtureServersDirectory, fixtureBundlesDirectory, fixtureServerNames), name);
}

/** A stdio server config (`mcpServers` entry) running one fixture server with the current node. */
export function fixtureServer(name: FixtureServerName, args: string[] = [], extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [fixtureServerPath(name), ...args], ...extra };
}

/**
 * Starts the 2026-07-28 fixture (`modern-server.mjs`) over Streamable HTTP with `args` (`--both`, `--tasks`) and
 * resolves with its URL (the line it prints once it listens). The caller kills the child.
 */
export function startHttpFixture(...args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return startListeningFixture('modern-server.mjs', ['--http', ...args]);
}

/** Starts the hand-written HTTP fixture (`raw-http-server.mjs`) with `args`; the caller kills the child. */
export function startRawHttpFixture(...args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return startListeningFixture('raw-http-server.mjs', args);
}

async function startListeningFixture(
  name: FixtureServerName,
  args: string[],
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [fixtureServerPath(name), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (text: string) => {
      output += text;
      const match = /^listening (\S+)\n/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the HTTP fixture exited (${code}) before listening`)));
  });
  return { child, url };
}
