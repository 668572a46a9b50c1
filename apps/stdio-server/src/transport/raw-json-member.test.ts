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

  it('skips large nested params in linear time', () => {
    const params = JSON.stringify({ data: Array.from({ length: 20_000 }, (_, index) => ({ id: index, s: '{[' })) });
    expect(rawJsonMember(`{"jsonrpc":"2.0","params":${params},"id":"last"}`, 'id')).toBe('"last"');
  });
});
