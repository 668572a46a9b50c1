import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.js';

function split(chunks: Array<string | Uint8Array>, maxLineLength?: number) {
  const lines: string[] = [];
  const overflows: Array<[string, number]> = [];
  const splitter = new LineSplitter({
    onLine: (line) => lines.push(line),
    onOverflow: (head, length) => overflows.push([head, length]),
    ...(maxLineLength === undefined ? {} : { maxLineLength }),
  });
  for (const chunk of chunks) splitter.push(chunk);
  return { lines, overflows, splitter };
}

describe('LineSplitter', () => {
  it('splits lines across chunk borders and strips \\r', () => {
    const { lines, splitter } = split(['{"a":', '1}\r\n{"b"', ':2}\n', '{"c":3}']);
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(splitter.pendingCharacters).toBe(7);
  });

  it('keeps a UTF-8 character whole when its bytes arrive in two chunks', () => {
    const bytes = new TextEncoder().encode('"日本"\n');
    const { lines } = split([bytes.slice(0, 2), bytes.slice(2, 5), bytes.slice(5)]);
    expect(lines).toEqual(['"日本"']);
  });

  it('drops an over-long line, reports it once, and goes on with the next line', () => {
    const { lines, overflows } = split(['x'.repeat(6), 'y'.repeat(6), 'z'.repeat(6), '\n{"ok":true}\n'], 10);
    expect(overflows).toEqual([['xxxxxxyyyyyy', 12]]);
    expect(lines).toEqual(['{"ok":true}']);
  });

  it('joins a long line from many chunks into exactly the text sent', () => {
    const chunks = Array.from({ length: 1000 }, (_, index) => String(index % 10).repeat(100));
    const { lines } = split([...chunks, '\n']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(chunks.join(''));
  });
});
