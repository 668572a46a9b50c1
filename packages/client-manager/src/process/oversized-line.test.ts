import { describe, expect, it } from 'vitest';
import { OversizedLine } from './oversized-line.js';

/** Feeds a line in 1 kB chunks after its first `headLength` characters, as the transport does. */
function skipped(line: string, headLength = 300): OversizedLine {
  const bytes = Buffer.from(`${line}\n{"next":true}\n`);
  const tracker = new OversizedLine(line.slice(0, 200), headLength, bytes.subarray(0, headLength));
  for (let offset = headLength; offset < bytes.length; offset += 1024) {
    if (tracker.feed(bytes.subarray(offset, offset + 1024))) break;
  }
  return tracker;
}

describe('OversizedLine', () => {
  const text = 'x'.repeat(5000);

  it('finds the id at the end, in the order the SDK writes replies', () => {
    const line = `{"result":{"content":[{"type":"text","text":"${text}"}]},"jsonrpc":"2.0","id":42}`;
    const tracker = skipped(line);
    expect(tracker.responseId()).toBe(42);
    expect(tracker.length).toBe(line.length);
  });

  it('finds the id at the start, and string ids', () => {
    expect(skipped(`{"jsonrpc":"2.0","id":"req-9","result":{"text":"${text}"}}`).responseId()).toBe('req-9');
    expect(skipped(`{"id":3,"jsonrpc":"2.0","result":{"text":"${text}"}}`).responseId()).toBe(3);
  });

  it('does not take a nested id for the id of the reply', () => {
    const notification = `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${text}","id":5}}`;
    expect(skipped(notification).responseId()).toBeUndefined();
  });
});
