import { TimeoutError, ToolDisabledError, ToolNotFoundError, ValidationError } from '@search-mcp/shared';
import { describe, expect, it, vi } from 'vitest';
import { ToolRegistry } from './tool-registry.js';

const echo = {
  name: 'echo',
  description: 'Echoes the message',
  parameters: [{ name: 'message', type: 'string' as const, description: 'What to echo', required: true }],
};

function validationIssues(action: () => void): string[] {
  try {
    action();
  } catch (error) {
    expect(ValidationError.isInstance(error)).toBe(true);
    return (error as ValidationError).issues.map((issue) => `${issue.path}: ${issue.message}`);
  }
  throw new Error('expected a ValidationError');
}

describe('ToolRegistry.register', () => {
  it('validates names, descriptions and parameters, reporting every problem at once', () => {
    const registry = new ToolRegistry();
    expect(validationIssues(() => registry.register({ name: '', description: ' ' }, () => 1))).toEqual([
      'name: Tool name is required',
      'description: Tool description is required',
    ]);
    expect(validationIssues(() => registry.register({ name: 'Bad_Name', description: 'x' }, () => 1))[0]).toMatch(
      /^name: must start with a lower-case letter/,
    );
    expect(validationIssues(() => registry.register({ name: '1abc', description: 'x' }, () => 1))).toHaveLength(1);
    expect(validationIssues(() => registry.register({ name: 'ok', description: 'x' }, 'nope' as never))).toEqual([
      'implementation: must be a function',
    ]);
  });

  it('refuses a duplicate unless overwrite is set', () => {
    const registry = new ToolRegistry();
    registry.register(echo, () => 'first');
    expect(validationIssues(() => registry.register(echo, () => 'second'))).toEqual([
      'name: Tool "echo" is already registered (pass overwrite: true to replace it)',
    ]);
    registry.register({ ...echo, description: 'Replaced' }, () => 'second', { overwrite: true, version: '2.0.0' });
    expect(registry.get('echo')?.metadata.description).toBe('Replaced');
    expect(registry.getVersion('echo')).toBe('2.0.0');
  });

  it('turns `parameters` into a JSON Schema', () => {
    const registry = new ToolRegistry();
    registry.register(
      {
        name: 'add',
        description: 'Adds',
        parameters: [
          { name: 'a', type: 'number', description: 'first', required: true, minimum: 0 },
          { name: 'b', type: 'number', description: 'second', default: 1 },
        ],
      },
      ({ a, b }) => Number(a) + Number(b),
    );
    expect(registry.get('add')?.inputSchema).toEqual({
      type: 'object',
      properties: {
        a: { type: 'number', description: 'first', minimum: 0 },
        b: { type: 'number', description: 'second', default: 1 },
      },
      required: ['a'],
    });
  });
});

describe('ToolRegistry as a tool source', () => {
  it('lists enabled tools under its server id with version, tags and category, and bumps its revision', async () => {
    const registry = new ToolRegistry({ serverId: 'host', description: 'Tools of the host app', projects: ['web'] });
    registry.register(echo, ({ message }) => message, { category: 'text', tags: ['demo', 'text'] });
    registry.register({ name: 'hidden', description: 'Off at first' }, () => 1, { disabled: true });
    expect(registry.serverIds).toEqual(['host']);
    const tools = await registry.listAllTools();
    expect(tools).toEqual([
      {
        toolKey: 'host:echo',
        toolName: 'echo',
        serverName: 'host',
        description: 'Echoes the message',
        inputSchema: {
          type: 'object',
          properties: { message: { type: 'string', description: 'What to echo' } },
          required: ['message'],
        },
        serverDescription: 'Tools of the host app',
        serverProjects: ['web'],
        category: 'text',
        tags: ['demo', 'text'],
      },
    ]);
    expect(registry.list({ tags: ['demo'] }).map((entry) => entry.metadata.name)).toEqual(['echo']);
    expect(registry.list({ enabled: false }).map((entry) => entry.metadata.name)).toEqual(['hidden']);
    const revision = registry.toolsRevision;
    registry.enable('hidden');
    expect(registry.toolsRevision).toBe(revision + 1);
    expect((await registry.listAllTools()).map((tool) => tool.toolName)).toEqual(['echo', 'hidden']);
    registry.disable('hidden');
    expect(registry.unregister('hidden')).toBe(true);
    expect(registry.unregister('hidden')).toBe(false);
    expect(() => registry.enable('ghost')).toThrow(ToolNotFoundError);
  });

  it('is running for its own server id and tells its projects', () => {
    const registry = new ToolRegistry({ serverId: 'host', projects: ['web'] });
    expect(registry.serverState('host')).toBe('running');
    expect(registry.serverState('other')).toBeUndefined();
    expect(registry.projects).toEqual(['web']);
    expect(new ToolRegistry().projects).toBeUndefined();
  });

  it('wraps plain values, passes CallToolResults through, and turns throws into isError results', async () => {
    const registry = new ToolRegistry();
    registry.register({ name: 'text', description: 'x' }, () => 'hello');
    registry.register({ name: 'object', description: 'x' }, () => ({ count: 2 }));
    registry.register({ name: 'result', description: 'x' }, () => ({
      content: [{ type: 'text', text: 'as is' }],
      _meta: { a: 1 },
    }));
    registry.register({ name: 'broken', description: 'x' }, () => {
      throw new Error('disk full');
    });
    registry.register({ name: 'strict', description: 'x' }, () => {
      throw new ValidationError({ issues: [{ path: 'arguments.x', message: 'is required' }] });
    });
    expect(await registry.callTool('local', 'text', {})).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    expect(await registry.callTool('local', 'object', {})).toEqual({
      content: [{ type: 'text', text: '{"count":2}' }],
      structuredContent: { count: 2 },
    });
    expect(await registry.callTool('local', 'result', {})).toEqual({
      content: [{ type: 'text', text: 'as is' }],
      _meta: { a: 1 },
    });
    expect(await registry.callTool('local', 'broken', {})).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'disk full' }],
    });
    await expect(registry.callTool('local', 'strict', {})).rejects.toThrow(ValidationError);
    await expect(registry.callTool('other', 'text', {})).rejects.toThrow(ToolNotFoundError);
    registry.disable('text');
    await expect(registry.callTool('local', 'text', {})).rejects.toThrow(ToolDisabledError);
  });

  it('reports progress, restarts its timeout on progress, times out, and cancels', async () => {
    const registry = new ToolRegistry({ timeoutMs: 150 });
    registry.register({ name: 'steps', description: 'x' }, async (_args, context) => {
      for (let step = 1; step <= 4; step += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        context.reportProgress({ progress: step, total: 4 });
      }
      return 'done';
    });
    registry.register({ name: 'forever', description: 'x' }, () => new Promise(() => {}));
    const progress: number[] = [];
    // Simulated time: 400 ms of work in 100 ms steps outlives a 150 ms timeout only because progress restarts it.
    vi.useFakeTimers();
    try {
      const steps = registry.callTool('local', 'steps', {}, { onProgress: (update) => progress.push(update.progress) });
      await vi.advanceTimersByTimeAsync(400);
      expect(await steps).toEqual({ content: [{ type: 'text', text: 'done' }] });
      expect(progress).toEqual([1, 2, 3, 4]);
      let settled = false;
      const forever = registry
        .callTool('local', 'forever', {})
        .catch((error: unknown) => error)
        .finally(() => {
          settled = true;
        });
      await vi.advanceTimersByTimeAsync(149);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await forever).toBeInstanceOf(TimeoutError);
    } finally {
      vi.useRealTimers();
    }
    const controller = new AbortController();
    const call = registry.callTool('local', 'forever', {}, { signal: controller.signal, timeoutMs: 10_000 });
    controller.abort(new Error('cancelled'));
    await expect(call).rejects.toThrow('cancelled');
  });
});
