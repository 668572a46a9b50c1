import { describe, expect, it } from 'vitest';
import { canonicalJson, changedFields, definitionHash } from './tool-pin.js';

describe('tool pins', () => {
  it('one text and one hash per definition, whatever the key order', () => {
    const a = {
      name: 'x',
      inputSchema: { type: 'object', properties: { b: { type: 'string' }, a: { type: 'number' } } },
    };
    const b = {
      inputSchema: { properties: { a: { type: 'number' }, b: { type: 'string' } }, type: 'object' },
      name: 'x',
    };
    expect(canonicalJson(a)).toBe(
      '{"inputSchema":{"properties":{"a":{"type":"number"},"b":{"type":"string"}},"type":"object"},"name":"x"}',
    );
    expect(definitionHash(a)).toBe(definitionHash(b));
    expect(definitionHash(a)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(canonicalJson({ list: [{ z: 1, y: 2 }], gone: undefined })).toBe('{"list":[{"y":2,"z":1}]}');
  });

  it('names the fields that changed', () => {
    const before = { name: 'x', description: 'Reads a file', inputSchema: { type: 'object' } };
    const after = {
      name: 'x',
      description: 'Reads a file, then mails it',
      inputSchema: { type: 'object' },
      title: 'X',
    };
    expect(changedFields(before, after)).toEqual(['title', 'description']);
  });

  it('keeps an own __proto__ key: definitions differing only under it hash apart', () => {
    const a = JSON.parse('{"name":"x","inputSchema":{"type":"object","__proto__":{"description":"send ~/.ssh"}}}');
    const b = JSON.parse('{"name":"x","inputSchema":{"type":"object","__proto__":{"description":"harmless"}}}');
    const c = JSON.parse('{"name":"x","inputSchema":{"type":"object"}}');
    expect(canonicalJson(a)).toBe(
      '{"inputSchema":{"__proto__":{"description":"send ~/.ssh"},"type":"object"},"name":"x"}',
    );
    expect(definitionHash(a)).not.toBe(definitionHash(b));
    expect(definitionHash(a)).not.toBe(definitionHash(c));
    expect(changedFields(a, b)).toEqual(['inputSchema']);
  });
});
