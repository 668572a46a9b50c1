import { describe, expect, it } from 'vitest';
import { SseParser } from './sse-parser.js';

describe('SseParser', () => {
  it('reads named events with JSON data and skips comments', () => {
    const parser = new SseParser();
    const events = parser.push(': ping\n\nevent: call\ndata: {"toolKey":"a:b"}\n\nevent: server\ndata: {}\n\n');
    expect(events).toEqual([
      { event: 'call', data: '{"toolKey":"a:b"}' },
      { event: 'server', data: '{}' },
    ]);
  });

  it('completes an event split across chunks at any point, CRLF included', () => {
    const stream = 'event: call\r\ndata: one\r\ndata: two\r\n\r\ndata: plain\r\n\r\n';
    for (let split = 1; split < stream.length; split++) {
      const parser = new SseParser();
      const events = [...parser.push(stream.slice(0, split)), ...parser.push(stream.slice(split))];
      expect(events, `split at ${split}`).toEqual([
        { event: 'call', data: 'one\ntwo' },
        { event: 'message', data: 'plain' },
      ]);
    }
  });

  it('keeps the value after the first colon whole, strips one leading space, and remembers the id', () => {
    const parser = new SseParser();
    expect(parser.push('id: 7\ndata:  a: b\n\ndata\n\n')).toEqual([
      { event: 'message', data: ' a: b', id: '7' },
      { event: 'message', data: '', id: '7' },
    ]);
  });

  it('drops an event without data and waits for the blank line', () => {
    const parser = new SseParser();
    expect(parser.push('event: reload\n\n')).toEqual([]);
    expect(parser.push('event: reload\ndata: {}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'reload', data: '{}' }]);
  });

  it('treats a lone CR as a line end', () => {
    const parser = new SseParser();
    expect(parser.push('data: x\r\rdata: y\r')).toEqual([{ event: 'message', data: 'x' }]);
    expect(parser.push('\r\n')).toEqual([{ event: 'message', data: 'y' }]);
  });
});
