import { describe, expect, it } from 'vitest';
import { stillStartingNote, summarizeBackendInstructions } from './backend-instructions.js';

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

describe('stillStartingNote', () => {
  it('is empty when no server is starting', () => {
    expect(stillStartingNote([], 'meta')).toBe('');
  });

  it('names the servers and says where their tools will appear, per mode', () => {
    expect(stillStartingNote(['github', 'slack'], 'meta')).toBe(
      'Still starting (their own notes are not included): github, slack. tool_discovery waits for servers still ' +
        'starting and searches their tools once they are connected.',
    );
    expect(stillStartingNote(['github'], 'proxy')).toBe(
      'Still starting (their own notes are not included): github. Their tools are added to the tool list once ' +
        'they are connected.',
    );
  });

  it('names ten servers at most and counts the rest', () => {
    const ids = Array.from({ length: 13 }, (_, index) => `s${index}`);
    expect(stillStartingNote(ids, 'proxy')).toMatch(/: s0, s1, s2, s3, s4, s5, s6, s7, s8, s9 and 3 more\. Their/);
  });
});
