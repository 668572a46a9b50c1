import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseJsonWithComments } from './parse-json-with-comments.js';

describe('parseJsonWithComments', () => {
  it('parses plain JSON like JSON.parse', () => {
    const text = '{"a": [1, -2.5, 3e2, true, false, null], "b": "x\\n\\u00e9\\"", "c": {}}';
    expect(parseJsonWithComments(text)).toEqual(JSON.parse(text));
  });

  it('ignores line and block comments outside strings', () => {
    const text = `// leading
{
  "url": "https://host/mcp", // a URL's "//" stays
  /* block
     comment */ "glob": "src/**/*.ts", "note": "/* not a comment */"
}
/* trailing */`;
    expect(parseJsonWithComments(text)).toEqual({
      url: 'https://host/mcp',
      glob: 'src/**/*.ts',
      note: '/* not a comment */',
    });
  });

  it('accepts trailing commas in objects and arrays', () => {
    expect(parseJsonWithComments('{ "a": [1, 2, ], "b": { "c": 1, /* x */ }, }')).toEqual({ a: [1, 2], b: { c: 1 } });
  });

  it('does not accept an empty element or a lone comma', () => {
    expect(() => parseJsonWithComments('[1,,2]')).toThrow(JsonSyntaxError);
    expect(() => parseJsonWithComments('[,]')).toThrow(JsonSyntaxError);
    expect(() => parseJsonWithComments('{,}')).toThrow(JsonSyntaxError);
  });

  it('skips a byte order mark', () => {
    expect(parseJsonWithComments('\uFEFF{"a": 1}')).toEqual({ a: 1 });
  });

  it('keeps "__proto__" an ordinary key', () => {
    const value = parseJsonWithComments('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('reports line and column of syntax errors', () => {
    const cases: Array<[string, number, number, string]> = [
      ['{\n  "a": 1\n  "b": 2\n}', 3, 3, 'expected "," or "}"'],
      ['{"a": }', 1, 7, 'expected a value'],
      ['{\n  "a": "unterminated\n}', 2, 21, 'control character in string (use an escape such as \\n)'],
      ['{"a": "open', 1, 7, 'unterminated string'],
      ['{"a": 1} x', 1, 10, 'unexpected content after the end of the document'],
      ['{ /* never closed', 1, 3, 'unterminated comment'],
      ["{'a': 1}", 1, 2, 'expected a property name in double quotes'],
      ['[1 2]', 1, 4, 'expected "," or "]"'],
      ['{"a" 1}', 1, 6, 'expected ":" after a property name'],
      ['{"a": "\\x"}', 1, 8, 'invalid escape in string'],
      ['', 1, 1, 'unexpected end of file, expected a value'],
    ];
    for (const [text, line, column, description] of cases) {
      let caught: unknown;
      try {
        parseJsonWithComments(text);
      } catch (error) {
        caught = error;
      }
      expect(caught, text).toBeInstanceOf(JsonSyntaxError);
      expect(caught, text).toMatchObject({ line, column });
      expect((caught as Error).message, text).toBe(`invalid JSON at line ${line}, column ${column}: ${description}`);
    }
  });
});
