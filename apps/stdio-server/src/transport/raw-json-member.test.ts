import { describe, expect, it } from 'vitest';
import { rawJsonMember } from './raw-json-member.js';

describe('rawJsonMember', () => {
  it('returns the source text of a top-level member, as written', () => {
    expect(rawJsonMember('{"jsonrpc":"2.0","id":1e300,"method":"ping"}', 'id')).toBe('1e300');
    expect(rawJsonMember('{ "id" : -0.50E+2 , "x":1}', 'id')).toBe('-0.50E+2');
    expect(rawJsonMember('{"id":"a\\"b\\\\","x":1}', 'id')).toBe('"a\\"b\\\\"');
    expect(rawJsonMember('{"a":{"id":1},"b":[{"id":2},"}]"],"id":3}', 'id')).toBe('3');
    expect(rawJsonMember('{"\\u0069d":4}', 'id')).toBe('4');
  });

  it('takes the last of duplicate members, as JSON.parse does', () => {
    const text = '{"id":1,"method":"x","id":2.0}';
    expect(rawJsonMember(text, 'id')).toBe('2.0');
    expect((JSON.parse(text) as { id: number }).id).toBe(2);
  });

  it('is undefined without the member or without an object', () => {
    expect(rawJsonMember('{"method":"x"}', 'id')).toBeUndefined();
    expect(rawJsonMember('{}', 'id')).toBeUndefined();
    expect(rawJsonMember('[{"id":1}]', 'id')).toBeUndefined();
    expect(rawJsonMember('"id"', 'id')).toBeUndefined();
  });

  it('reads a plain last member from the end, exactly as the full scan would', () => {
    // [text, the id as written]: the last member written plainly, and every look-alike the shortcut must not take.
    const cases: Array<[string, string]> = [
      ['{"method":"tools/call","params":{"name":"x","arguments":{"id":7}},"jsonrpc":"2.0","id":12}', '12'],
      ['{"jsonrpc":"2.0","id":"req-1"}', '"req-1"'],
      ['{"id":-0.5e+3}  \r', '-0.5e+3'],
      ['{"method":"x","id":1,"params":{"id":2}}', '1'],
      ['{"method":"x","id":1,"params":[{"id":2}]}', '1'],
      ['{"method":"x","id":3,"params":{"s":",\\"id\\":4"}}', '3'],
      ['{"id":5,"method":"x","note":"id"}', '5'],
      ['{"id":6,"method":"x","aid":7}', '6'],
      ['{"id":8,"method":"x", "id":9.0}', '9.0'],
      ['{"id":10,"method":"x","id" : 11}', '11'],
      ['{"method":"x","id":"a\\"b"}', '"a\\"b"'],
      ['{"method":"x","id":"a\\\\"}', '"a\\\\"'],
      ['{"method":"x","id":""}', '""'],
      ['{"method":"x","id":true}', 'true'],
      ['{"method":"x","\\u0069d":12}', '12'],
    ];
    for (const [text, raw] of cases) {
      expect(rawJsonMember(text, 'id'), text).toBe(raw);
      expect(JSON.parse(raw), text).toEqual((JSON.parse(text) as { id: unknown }).id);
    }
  });

  it('skips large nested params in linear time', () => {
    const params = JSON.stringify({ data: Array.from({ length: 20_000 }, (_, index) => ({ id: index, s: '{[' })) });
    expect(rawJsonMember(`{"jsonrpc":"2.0","params":${params},"id":"last"}`, 'id')).toBe('"last"');
  });
});
