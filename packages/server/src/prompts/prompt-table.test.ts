import { describe, expect, it } from 'vitest';
import { EXPOSED_NAME_PATTERN } from '../exposed-names.js';
import { PromptTable } from './prompt-table.js';

describe('PromptTable', () => {
  it('lists prompts under server__prompt, in the servers order, and resolves both spellings', () => {
    const table = new PromptTable([
      { serverId: 'b', prompts: [{ name: 'greet', description: 'from b', arguments: [] }] },
      { serverId: 'a', prompts: [{ name: 'greet', description: 'from a', vendor: 1 }] },
    ]);
    expect(table.prompts.map((prompt) => prompt.definition)).toEqual([
      { name: 'b__greet', description: 'from b', arguments: [] },
      { name: 'a__greet', description: 'from a', vendor: 1 },
    ]);
    expect(table.resolve('b__greet')).toEqual({ serverId: 'b', name: 'greet' });
    expect(table.resolve('a:greet')).toEqual({ serverId: 'a', name: 'greet' });
    expect(table.resolve('c__greet')).toBeUndefined();
  });

  it('shortens a long prompt name to 64 safe characters and still resolves it', () => {
    const long = `p${'-long-prompt-name'.repeat(4)}`;
    const table = new PromptTable([{ serverId: 'a', prompts: [{ name: long }] }]);
    const exposed = table.prompts[0]?.definition.name ?? '';
    expect(exposed.length).toBeLessThanOrEqual(64);
    expect(EXPOSED_NAME_PATTERN.test(exposed)).toBe(true);
    expect(table.resolve(exposed)).toEqual({ serverId: 'a', name: long });
  });

  it('lists prompts under their own names with original, prefixed only where two servers share one', () => {
    const table = new PromptTable(
      [
        { serverId: 'a', prompts: [{ name: 'greet' }, { name: 'summarize' }] },
        { serverId: 'b', prompts: [{ name: 'greet' }] },
      ],
      'original',
    );
    expect(table.prompts.map((prompt) => prompt.definition.name)).toEqual(['a__greet', 'summarize', 'b__greet']);
    expect(table.resolve('summarize')).toEqual({ serverId: 'a', name: 'summarize' });
    expect(table.resolve('b__greet')).toEqual({ serverId: 'b', name: 'greet' });
  });
});
