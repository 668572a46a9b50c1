/**
 * Issue 9 through the built `search-mcp` binary over stdio, with a real SDK client: resources, prompts,
 * completions, logging, reverse requests (sampling, elicitation, roots), tasks and `_meta`, against
 * server-everything, server-filesystem and two feature fixtures. One proxy-mode process for most of the file.
 */
import { join } from 'node:path';
import {
  type McpError,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callTool,
  eventually,
  type ForwardingClient,
  forwardingConfig,
  Loose,
  longPrompt,
  startForwardingClient,
  textOf,
  waitForServers,
  withDeadline,
} from './forwarding-support.js';

const stepTimeoutMs = 90_000;
let config: Awaited<ReturnType<typeof forwardingConfig>>;
let session: ForwardingClient;

beforeAll(async () => {
  config = await forwardingConfig({ exposure: { mode: 'proxy' } });
  // `initialize` waits for every backend here (they all start in seconds), so their notes are in its instructions.
  session = await startForwardingClient(['--config', config.path], {
    env: { SEARCH_MCP_INSTRUCTIONS_WAIT_MS: '60000' },
  });
  await waitForServers(session.client, ['everything', 'fs', 'a', 'b']);
}, stepTimeoutMs);

afterAll(async () => {
  await session?.close();
  await config?.remove();
});

async function errorOf(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    return error as McpError;
  }
  throw new Error('expected an error');
}

describe('initialize', () => {
  it('announces what is forwarded and summarises the backends’ instructions', () => {
    expect(session.client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
    expect(session.client.getInstructions()).toContain('- a: Feature server a.');
  });
});

describe('resources', () => {
  it('lists every server’s resources page by page with our cursors', { timeout: stepTimeoutMs }, async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await session.client.listResources(cursor ? { cursor } : {});
      uris.push(...page.resources.map((resource) => resource.uri));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined && pages < 100);
    expect(uris).toContain('demo://resource/static/document/architecture.md');
    expect(uris).toEqual(expect.arrayContaining(['res://a/0', 'res://a/2', 'shared://doc']));
    expect(pages).toBeGreaterThan(1);
    const templates = await session.client.listResourceTemplates();
    const all = [...templates.resourceTemplates];
    let next = templates.nextCursor;
    while (next !== undefined) {
      const page = await session.client.listResourceTemplates({ cursor: next });
      all.push(...page.resourceTemplates);
      next = page.nextCursor;
    }
    expect(all.map((template) => template.uriTemplate)).toEqual(
      expect.arrayContaining(['demo://resource/dynamic/text/{resourceId}', 'a://item/{id}']),
    );
  });

  it('refuses a cursor it did not make with -32602', async () => {
    expect((await errorOf(session.client.listResources({ cursor: 'x' }))).code).toBe(-32602);
    const foreign = Buffer.from(JSON.stringify({ v: 1, k: 'resources', s: 'nowhere' })).toString('base64url');
    expect((await errorOf(session.client.listResources({ cursor: foreign }))).code).toBe(-32602);
  });

  it('reads listed, templated and linked resources; a collision goes to the first server in config order', async () => {
    const doc = await session.client.readResource({ uri: 'demo://resource/static/document/architecture.md' });
    expect(JSON.stringify(doc.contents)).toContain('architecture');
    const templated = await session.client.readResource({ uri: 'demo://resource/dynamic/text/5' });
    expect(templated.contents[0]?.uri).toBe('demo://resource/dynamic/text/5');
    expect((await session.client.readResource({ uri: 'a://item/7' })).contents[0]).toMatchObject({
      text: 'a read a://item/7',
    });
    expect((await session.client.readResource({ uri: 'shared://doc' })).contents[0]).toMatchObject({ text: 'from a' });
    const unknown = await errorOf(session.client.readResource({ uri: 'linked://a/1' }));
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toContain('Resource not found: linked://a/1');
    const linked = await callTool(session.client, 'a__link', {});
    expect(linked.content?.[0]).toMatchObject({ type: 'resource_link', uri: 'linked://a/1' });
    expect((await session.client.readResource({ uri: 'linked://a/1' })).contents[0]).toMatchObject({
      text: 'a read linked://a/1',
    });
  });

  it('relays resources/updated of a subscribed uri, and list_changed', { timeout: stepTimeoutMs }, async () => {
    const updated: string[] = [];
    let onUpdate: (() => void) | undefined;
    session.client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => {
      updated.push(notification.params.uri);
      onUpdate?.();
    });
    await session.client.subscribeResource({ uri: 'res://a/1' });
    expect(textOf(await callTool(session.client, 'a__subscriptions'))).toContain('res://a/1');
    const arrived = new Promise<void>((resolve) => {
      onUpdate = resolve;
    });
    await callTool(session.client, 'a__touch', { uri: 'res://a/1' });
    await withDeadline(arrived, 'resources/updated');
    expect(updated).toEqual(['res://a/1']);
    await session.client.unsubscribeResource({ uri: 'res://a/1' });
    expect(textOf(await callTool(session.client, 'a__subscriptions'))).not.toContain('res://a/1');

    const listChanged = withDeadline(
      new Promise<void>((resolve) => {
        session.client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => resolve());
      }),
      'resources/list_changed',
    );
    const gzip = await callTool(session.client, 'everything__gzip-file-as-resource', {
      name: 'hello.txt.gz',
      data: 'data:text/plain,hi',
      outputType: 'resourceLink',
    });
    await listChanged;
    const link = gzip.content?.find((block) => block.type === 'resource_link');
    expect(link?.uri).toBeDefined();
    const read = await session.client.readResource({ uri: link?.uri as string });
    expect(read.contents.length).toBe(1);
  });
});

describe('prompts and completions', () => {
  it('lists prompts as server__prompt (64-char safe), one page, and gets them', async () => {
    const { prompts, nextCursor } = await session.client.listPrompts();
    const names = prompts.map((prompt) => prompt.name);
    expect(nextCursor).toBeUndefined();
    expect(names).toEqual(expect.arrayContaining(['a__greet', 'b__greet', 'everything__args-prompt']));
    expect(names.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
    const long = prompts.find((prompt) => prompt.description === `Prompt ${longPrompt} of a`);
    expect(long?.name.length).toBeLessThanOrEqual(64);
    const got = await session.client.getPrompt({ name: long?.name as string, arguments: { topic: 'x' } });
    expect(JSON.stringify(got.messages)).toContain(`${longPrompt} about x`);
    const tokyo = await session.client.getPrompt({ name: 'everything__args-prompt', arguments: { city: 'Tokyo' } });
    expect(JSON.stringify(tokyo.messages)).toContain('Tokyo');
    expect((await session.client.getPrompt({ name: 'b:greet' })).description).toBe('greet from b');
    expect((await errorOf(session.client.getPrompt({ name: 'nope__x' }))).code).toBe(-32602);
    expect((await errorOf(session.client.listPrompts({ cursor: 'abc' }))).code).toBe(-32602);
  });

  it('completes prompt arguments and template variables, routed by ref', async () => {
    const department = await session.client.complete({
      ref: { type: 'ref/prompt', name: 'everything__completable-prompt' },
      argument: { name: 'department', value: 'E' },
    });
    expect(department.completion.values).toEqual(['Engineering']);
    const people = await session.client.complete({
      ref: { type: 'ref/prompt', name: 'everything__completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Sales' } },
    });
    expect(people.completion.values).toEqual(['David', 'Eve', 'Frank']);
    const template = await session.client.complete({
      ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
      argument: { name: 'resourceId', value: '3' },
    });
    expect(template.completion.values).toEqual(['3']);
    const unknown = session.client.complete({
      ref: { type: 'ref/prompt', name: 'nobody__nothing' },
      argument: { name: 'x', value: '' },
    });
    expect((await errorOf(unknown)).code).toBe(-32602);
  });
});

describe('logging', () => {
  it('sets the level on the backends and relays their messages with the server as logger', async () => {
    await session.client.setLoggingLevel('warning');
    expect(textOf(await callTool(session.client, 'a__current-level'))).toBe('warning');
    await callTool(session.client, 'a__log', { level: 'debug', message: 'quiet detail' });
    await callTool(session.client, 'a__log', { level: 'error', message: 'loud failure' });
    const error = await session.nextLog((params) => params.data === 'loud failure');
    expect(error).toMatchObject({ level: 'error', logger: 'a' });
    expect(session.logs.some((params) => params.data === 'quiet detail')).toBe(false);
    await session.client.setLoggingLevel('debug');
  });
});

describe('reverse requests', () => {
  it('sends sampling, elicitation and roots of a call to this client, and the answers back', {
    timeout: stepTimeoutMs,
  }, async () => {
    const sampled = await callTool(session.client, 'everything__trigger-sampling-request', {
      prompt: 'Say hi',
      maxTokens: 5,
    });
    expect(textOf(sampled)).toContain('sampled by stdio-client');
    expect(textOf(await callTool(session.client, 'a__ask-sampling', { prompt: 'x' }))).toBe('sampled by stdio-client');
    expect(textOf(await callTool(session.client, 'a__ask-elicitation', { message: 'Name?' }))).toContain(
      'stdio-client',
    );
    const elicited = await callTool(session.client, 'everything__trigger-elicitation-request', {});
    expect(session.elicitationRequests.length).toBeGreaterThanOrEqual(2);
    expect(elicited.isError).not.toBe(true);
    const url = await callTool(session.client, 'everything__trigger-url-elicitation', {
      url: 'https://example.com/consent',
    });
    expect(url.isError).not.toBe(true);
    expect(session.elicitationRequests.some((params) => params.mode === 'url')).toBe(true);
    // server-everything asks for roots when told they changed, and answers get-roots-list from what it got.
    session.roots = [{ uri: `file://${config.files}`, name: 'files' }];
    await session.client.sendRootsListChanged();
    await eventually(async () => {
      const text = textOf(await callTool(session.client, 'everything__get-roots-list'));
      return text.includes(config.files) ? text : undefined;
    }, 'everything has the roots');
    expect(textOf(await callTool(session.client, 'a__ask-roots'))).toContain(config.files);
  });

  it('passes -32042 (URL elicitation required) with its data', async () => {
    const error = await errorOf(
      callTool(session.client, 'everything__trigger-url-elicitation', {
        url: 'https://example.com/a',
        errorPath: true,
      }),
    );
    expect(error.code).toBe(-32042);
    expect((error.data as { elicitations?: unknown[] }).elicitations?.length).toBe(1);
  });

  it('gives server-filesystem the client’s roots, and the new ones after a change', {
    timeout: stepTimeoutMs,
  }, async () => {
    const sub = join(config.files, 'sub');
    const other = join(config.files, 'other');
    session.roots = [{ uri: `file://${sub}`, name: 'sub' }];
    await session.client.sendRootsListChanged();
    await eventually(async () => {
      const text = textOf(await callTool(session.client, 'fs__list_allowed_directories'));
      return text.includes(sub) ? text : undefined;
    }, 'fs sees the sub root');
    session.roots = [{ uri: `file://${other}`, name: 'other' }];
    await session.client.sendRootsListChanged();
    const text = await eventually(async () => {
      const listed = textOf(await callTool(session.client, 'fs__list_allowed_directories'));
      return listed.includes(other) ? listed : undefined;
    }, 'fs sees the changed root');
    expect(text).not.toContain(sub);
  });

  it('answers a request no call caused with a clear error, not a hang', { timeout: stepTimeoutMs }, async () => {
    await callTool(session.client, 'a__sample-uncaused');
    const outcome = await session.nextLog((params) => String(params.data).startsWith('sampling '));
    expect(String(outcome.data)).toContain('-32603');
    expect(String(outcome.data)).toContain('No client of Search MCP is waiting');
  });
});

describe('tasks and _meta', () => {
  it('runs a task-augmented call under a task id of ours: get, list, result', { timeout: stepTimeoutMs }, async () => {
    const created = await callTool(
      session.client,
      'everything__simulate-research-query',
      { topic: 'python' },
      {
        task: { ttl: 60_000 },
      },
    );
    const task = created.task as { taskId: string; status: string };
    expect(task.taskId).toMatch(/^[0-9a-f-]{36}$/);
    const status = await session.client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, Loose);
    expect(status.taskId).toBe(task.taskId);
    const listed = await session.client.request({ method: 'tasks/list', params: {} }, Loose);
    expect((listed.tasks as Array<{ taskId: string }>).map((entry) => entry.taskId)).toContain(task.taskId);
    const result = await session.client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose, {
      timeout: 120_000,
    });
    expect(JSON.stringify(result)).toContain('Research Report');
    const unknown = await errorOf(session.client.request({ method: 'tasks/get', params: { taskId: 'nope' } }, Loose));
    expect(unknown.code).toBe(-32602);
  });

  it('forwards request _meta without Search MCP’s own keys', async () => {
    const result = await callTool(
      session.client,
      'a__echo-meta',
      {},
      {
        meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'vendor/x': 1, token: 't' },
      },
    );
    const meta = (result.structuredContent as { meta: Record<string, unknown> }).meta;
    expect(meta).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'vendor/x': 1 });
  });
});
