import { describe, expect, it } from 'vitest';
import { plainToolExecuteArguments, toolExecuteArguments } from './meta-tool-arguments.js';

describe('plainToolExecuteArguments', () => {
  const wellFormed: Array<Record<string, unknown>> = [
    { toolKey: 'everything:echo', arguments: { message: 'hi' } },
    { toolKey: 'everything:echo' },
    { toolKey: ' spaced:key ', arguments: {} },
    { toolKey: 'a:b', arguments: { nested: { deep: [1, 2] } }, extra: 'ignored' },
  ];
  const illFormed: Array<Record<string, unknown>> = [
    {},
    { toolKey: '' },
    { toolKey: '   ' },
    { toolKey: 42 },
    { toolKey: 'a:b', arguments: [] },
    { toolKey: 'a:b', arguments: null },
    { toolKey: 'a:b', arguments: 'text' },
    { toolKey: 'a:b', arguments: 7 },
  ];

  it('accepts exactly what the zod schema accepts, with the same key and arguments', () => {
    for (const args of wellFormed) {
      const plain = plainToolExecuteArguments(args);
      const parsed = toolExecuteArguments.parse(args);
      expect(plain).toEqual(parsed);
    }
    for (const args of illFormed) {
      expect(plainToolExecuteArguments(args)).toBeUndefined();
      expect(toolExecuteArguments.safeParse(args).success).toBe(false);
    }
  });

  it('passes the tool arguments on as received (no copy on the forwarding path)', () => {
    const toolArguments = { message: 'hi' };
    expect(plainToolExecuteArguments({ toolKey: 'a:b', arguments: toolArguments })?.arguments).toBe(toolArguments);
  });
});
