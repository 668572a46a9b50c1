import { describe, expect, it } from 'vitest';
import { summarizeBackendInstructions } from './backend-instructions.js';

describe('summarizeBackendInstructions', () => {
  it('names which server said what, whitespace collapsed, servers without notes left out', () => {
    const text = summarizeBackendInstructions([
      { serverId: 'everything', instructions: 'Use  the\n echo tool\tfirst.' },
      { serverId: 'quiet', instructions: undefined },
      { serverId: 'blank', instructions: '   ' },
      { serverId: 'a', instructions: 'Feature server.' },
    ]);
    expect(text).toBe(
      'Notes from the servers (their own instructions, shortened):\n- everything: Use the echo tool first.\n- a: Feature server.',
    );
  });

  it('is empty when no server gave instructions', () => {
    expect(summarizeBackendInstructions([{ serverId: 'x', instructions: undefined }])).toBe('');
  });

  it('cuts one long note to the per-server budget', () => {
    const text = summarizeBackendInstructions([{ serverId: 'long', instructions: 'word '.repeat(500) }], {
      total: 2000,
      perServer: 100,
    });
    const line = text.split('\n')[1] ?? '';
    expect(line.startsWith('- long: word')).toBe(true);
    expect(line.length).toBeLessThanOrEqual('- long: '.length + 100);
    expect(line.endsWith('…')).toBe(true);
  });

  it('stays within the total and counts the servers left out', () => {
    const entries = Array.from({ length: 30 }, (_, index) => ({
      serverId: `server-${index}`,
      instructions: `Notes of server ${index}: ${'detail '.repeat(40)}`,
    }));
    const text = summarizeBackendInstructions(entries, { total: 1000, perServer: 200 });
    expect(text.length).toBeLessThanOrEqual(1000);
    const lines = text.split('\n');
    const shown = lines.filter((line) => line.startsWith('- server-')).length;
    expect(shown).toBeGreaterThan(0);
    expect(lines.at(-1)).toBe(`… ${30 - shown} more servers have notes`);
  });
});
