import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawJsonMember } from '../src/transport/raw-json-member.js';

type Expectation = { error: number; id: string } | { result: true; id: string } | { none: true };
interface CorpusEntry {
  name: string;
  line: string;
  expect: Expectation;
}

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const corpus = JSON.parse(
  await readFile(new URL('./json-rpc-fuzz-corpus.json', import.meta.url), 'utf8'),
) as CorpusEntry[];

interface Answer {
  text: string;
  id: string | undefined;
  message: Record<string, unknown>;
}

/** The built `search-mcp` over stdio, and every line it writes, as text with the id's source text. */
class RawSession extends EventEmitter {
  readonly answers: Answer[] = [];
  readonly child: ChildProcessWithoutNullStreams;
  private pending = '';

  constructor(config: string) {
    super();
    this.child = spawn(process.execPath, [cli, '--config', config, '--log-level', 'silent'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.pending += chunk.toString('utf8');
      const lines = this.pending.split('\n');
      this.pending = lines.pop() ?? '';
      for (const text of lines) {
        this.answers.push({
          text,
          id: rawJsonMember(text, 'id'),
          message: JSON.parse(text) as Record<string, unknown>,
        });
      }
      this.emit('answers');
    });
  }

  /** Resolves true once `check` holds for what has been answered so far, false if it still does not after `limitMs`. */
  async until(check: () => boolean, limitMs = 10_000): Promise<boolean> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), limitMs);
    try {
      while (!check()) await once(this, 'answers', { signal: controller.signal });
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}

describe('every JSON-RPC message gets exactly one correct answer (fuzz corpus, built binary)', () => {
  let directory: string;
  let session: RawSession;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-fuzz-'));
    const config = join(directory, 'config.json');
    await writeFile(config, JSON.stringify({ mcpServers: {} }));
    session = new RawSession(config);
    session.child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } })}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
    );
    expect(await session.until(() => session.answers.some((answer) => answer.id === '"init"'))).toBe(true);
  });

  afterAll(async () => {
    if (session && session.child.exitCode === null) {
      const exited = once(session.child, 'exit');
      session.child.stdin.end();
      await exited;
    }
    await rm(directory, { recursive: true, force: true });
  });

  it('has at least 200 entries, each line one message and each id used once', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(200);
    expect(corpus.every((entry) => !entry.line.includes('\n'))).toBe(true);
    const ids = corpus.flatMap((entry) =>
      'id' in entry.expect && entry.expect.id !== 'null' ? [entry.expect.id] : [],
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers each entry as JSON-RPC 2.0 and MCP require, and keeps serving', async () => {
    const failures: string[] = [];
    for (const [index, entry] of corpus.entries()) {
      const sentinel = `"sentinel-${index}"`;
      const before = session.answers.length;
      session.child.stdin.write(`${entry.line}\n{"jsonrpc":"2.0","id":${sentinel},"method":"ping"}\n`);
      const expected = entry.expect;
      const expectedId = 'id' in expected && expected.id !== 'null' ? expected.id : undefined;
      const window = () => session.answers.slice(before).filter((answer) => answer.id !== sentinel);
      // The sentinel's answer follows every answer the transport gives the line itself; an answer from a handler
      // may come later, so an entry that expects one also waits for its id.
      const complete = await session.until(
        () =>
          session.answers.slice(before).some((answer) => answer.id === sentinel) &&
          (expectedId === undefined || window().some((answer) => answer.id === expectedId)),
        5000,
      );
      const answers = window();
      const problem = complete ? checkAnswers(expected, answers) : `no answer within 5 s (got ${texts(answers)})`;
      if (problem) failures.push(`${entry.name}: ${problem}\n    sent: ${entry.line.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    expect(session.child.exitCode).toBeNull();
  });

  it('answers a request that arrives in many small chunks and one with 1 MB of params', async () => {
    const line =
      '{"jsonrpc":"2.0","id":"chunked","method":"tools/call","params":{"name":"tool_discovery","arguments":{"query":"read a file"}}}\n';
    for (let start = 0; start < line.length; start += 7) session.child.stdin.write(line.slice(start, start + 7));
    const big = `{"jsonrpc":"2.0","id":"big","method":"ping","params":{"_meta":{"pad":"${'x'.repeat(1024 * 1024)}"}}}\n`;
    session.child.stdin.write(big);
    expect(
      await session.until(() =>
        ['"chunked"', '"big"'].every((id) => session.answers.some((answer) => answer.id === id)),
      ),
    ).toBe(true);
    expect(session.answers.find((answer) => answer.id === '"chunked"')?.message.result).toBeDefined();
    expect(session.answers.find((answer) => answer.id === '"big"')?.message.result).toEqual({});
  });
});

/** What is wrong with the answers to one entry, or undefined. */
function checkAnswers(expected: Expectation, answers: Answer[]): string | undefined {
  if ('none' in expected) return answers.length === 0 ? undefined : `expected no answer, got ${texts(answers)}`;
  if (answers.length !== 1) return `expected one answer, got ${answers.length}: ${texts(answers)}`;
  const [answer] = answers as [Answer];
  if (answer.message.jsonrpc !== '2.0') return `not a JSON-RPC 2.0 answer: ${answer.text}`;
  if (answer.id !== expected.id) return `id ${answer.id} instead of ${expected.id}`;
  if ('result' in expected) {
    return typeof answer.message.result === 'object' && answer.message.result !== null && !('error' in answer.message)
      ? undefined
      : `expected a result, got ${answer.text}`;
  }
  const error = answer.message.error as { code?: unknown; message?: unknown } | undefined;
  if (error?.code !== expected.error) return `expected error ${expected.error}, got ${answer.text.slice(0, 300)}`;
  if (typeof error.message !== 'string' || error.message.includes('\n') || error.message.length > 400)
    return `the message is not one readable line: ${JSON.stringify(error.message).slice(0, 300)}`;
  return undefined;
}

function texts(answers: Answer[]): string {
  return answers.map((answer) => answer.text.slice(0, 200)).join(' | ');
}
