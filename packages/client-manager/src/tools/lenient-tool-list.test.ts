import { describe, expect, it } from 'vitest';
import { dropDuplicateTools, parseToolPage, toToolInfo } from './lenient-tool-list.js';

describe('parseToolPage', () => {
  it('keeps good tools and every unknown field, drops bad ones with a reason', () => {
    const { tools, problems } = parseToolPage([
      { name: 'ok', inputSchema: { type: 'object' }, icons: [{ src: 'x' }], execution: { taskSupport: 'forbidden' } },
      { name: '', inputSchema: {} },
      { name: 'no-type', inputSchema: { properties: {} } },
      { name: 'bad-output', inputSchema: { type: 'object' }, outputSchema: 'nope', annotations: [] },
      null,
    ]);
    expect(tools.map((tool) => tool.name)).toEqual(['ok', 'no-type', 'bad-output']);
    expect(tools[0]).toMatchObject({ icons: [{ src: 'x' }], execution: { taskSupport: 'forbidden' } });
    expect(tools[1]?.inputSchema).toEqual({ type: 'object', properties: {} });
    expect(tools[2]?.outputSchema).toBeUndefined();
    expect(tools[2]?.annotations).toBeUndefined();
    expect(problems.map((problem) => [problem.index, problem.reason])).toEqual([
      [1, '`name` is missing or not a string'],
      [3, '`outputSchema` is not an object schema; ignored'],
      [3, '`annotations` is not an object; ignored'],
      [4, 'not an object'],
    ]);
  });

  it('reports a page whose tools is not an array', () => {
    expect(parseToolPage({ tools: 'no' })).toEqual({
      tools: [],
      problems: [{ index: -1, reason: '`tools` is not an array' }],
    });
  });
});

describe('dropDuplicateTools and toToolInfo', () => {
  it('keeps the first of two tools with one name', () => {
    const first = { name: 'a', description: 'first', inputSchema: { type: 'object' as const } };
    const { tools, duplicates } = dropDuplicateTools([first, { ...first, description: 'second' }]);
    expect(tools).toEqual([first]);
    expect(duplicates).toEqual(['a']);
  });

  it('builds the catalog view with the tool key and the title from annotations when there is no title', () => {
    const info = toToolInfo('github', {
      name: 'create_issue',
      inputSchema: { type: 'object' },
      annotations: { title: 'Create issue' },
    });
    expect(info).toMatchObject({
      toolKey: 'github:create_issue',
      toolName: 'create_issue',
      serverName: 'github',
      title: 'Create issue',
      description: '',
    });
  });
});
