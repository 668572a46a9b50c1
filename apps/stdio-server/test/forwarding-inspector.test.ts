/**
 * A client no one here wrote, the MCP Inspector CLI, against the built `search-mcp` over stdio: resources, templates,
 * a templated read, prompts, a prompt with arguments and logging/setLevel. Each run spawns Search MCP and its
 * backends anew, so the config holds only server-everything.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingEntry, forwardingConfig } from './forwarding-support.js';
import { runInspector } from './support/inspector-cli.js';

let config: Awaited<ReturnType<typeof forwardingConfig>>;
let configPath: string;

beforeAll(async () => {
  config = await forwardingConfig();
  configPath = join(config.directory, 'everything-only.json');
  await writeFile(
    configPath,
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingEntry] } } }),
  );
});

afterAll(async () => {
  await config?.remove();
});

async function run(args: string[]): Promise<Record<string, unknown>> {
  return JSON.parse(await runInspector(configPath, args)) as Record<string, unknown>;
}

describe('the MCP Inspector CLI', () => {
  // The Inspector CLI spends most of each run waiting, not computing: the runs go side by side.
  it('lists resources (one page) and templates, reads a templated one, lists and gets prompts, sets the log level', {
    timeout: 120_000,
  }, async () => {
    const [resources, templates, read, prompts, prompt, level] = await Promise.all([
      run(['--method', 'resources/list']),
      run(['--method', 'resources/templates/list']),
      run(['--method', 'resources/read', '--uri', 'demo://resource/dynamic/text/1']),
      run(['--method', 'prompts/list']),
      run(['--method', 'prompts/get', '--prompt-name', 'everything__args-prompt', '--prompt-args', 'city=Tokyo']),
      run(['--method', 'logging/setLevel', '--log-level', 'debug']),
    ]);
    expect((resources as { resources: Array<{ uri: string }> }).resources.map((entry) => entry.uri)).toContain(
      'demo://resource/static/document/architecture.md',
    );
    expect(
      (templates as { resourceTemplates: Array<{ uriTemplate: string }> }).resourceTemplates.map(
        (entry) => entry.uriTemplate,
      ),
    ).toContain('demo://resource/dynamic/text/{resourceId}');
    expect((read as { contents: Array<{ uri: string }> }).contents[0]?.uri).toBe('demo://resource/dynamic/text/1');
    expect((prompts as { prompts: Array<{ name: string }> }).prompts.map((entry) => entry.name)).toContain(
      'everything__args-prompt',
    );
    expect(JSON.stringify(prompt)).toContain('Tokyo');
    expect(level).toEqual({});
  });
});
