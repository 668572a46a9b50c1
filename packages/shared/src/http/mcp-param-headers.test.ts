import { describe, expect, it } from 'vitest';
import { checkParamHeaders, decodeHeaderValue, paramHeaders, scanHeaderDeclarations } from './mcp-param-headers.js';

const schema = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    priority: { type: 'integer', 'x-mcp-header': 'Priority' },
    nested: { type: 'object', properties: { flag: { type: 'boolean', 'x-mcp-header': 'Flag' } } },
  },
};
const declarations = (() => {
  const scan = scanHeaderDeclarations(schema);
  if (!scan.valid) throw new Error(scan.reason);
  return scan.declarations;
})();
const headersOf = (headers: Record<string, string>) => {
  const lower = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return (name: string) => lower.get(name.toLowerCase());
};

describe('scanHeaderDeclarations', () => {
  it('finds marks at any depth of properties, with their types', () => {
    expect(declarations).toEqual([
      { path: ['region'], headerName: 'Region', type: 'string' },
      { path: ['priority'], headerName: 'Priority', type: 'integer' },
      { path: ['nested', 'flag'], headerName: 'Flag', type: 'boolean' },
    ]);
  });

  it('refuses a mark on a number, under items, or twice', () => {
    const number = scanHeaderDeclarations({ properties: { n: { type: 'number', 'x-mcp-header': 'N' } } });
    expect(number).toMatchObject({ valid: false, reason: expect.stringContaining('not number') });
    const items = scanHeaderDeclarations({ items: { properties: { a: { type: 'string', 'x-mcp-header': 'A' } } } });
    expect(items.valid).toBe(false);
    const twice = scanHeaderDeclarations({
      properties: { a: { type: 'string', 'x-mcp-header': 'A' }, b: { type: 'string', 'x-mcp-header': 'a' } },
    });
    expect(twice).toMatchObject({ valid: false, reason: expect.stringContaining('declared twice') });
  });
});

describe('decodeHeaderValue', () => {
  it('decodes =?base64?…?= and keeps a value missing a marker literal', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8=?=')).toBe('Hello');
    expect(decodeHeaderValue('SGVsbG8=')).toBe('SGVsbG8=');
    expect(decodeHeaderValue('=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8=');
  });

  it('refuses a payload without its padding, with characters outside the alphabet, or not UTF-8', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8?=')).toBeUndefined();
    expect(decodeHeaderValue('=?base64?SGVs!!!bG8=?=')).toBeUndefined();
    expect(decodeHeaderValue(`=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`)).toBeUndefined();
  });

  it('reads back what paramHeaders sends', () => {
    const args = { region: ' Grüße ', priority: 3, nested: { flag: true } };
    const sent = paramHeaders(declarations, args);
    expect(sent['Mcp-Param-Region']).toMatch(/^=\?base64\?/);
    expect(checkParamHeaders(declarations, args, headersOf(sent))).toBeUndefined();
  });
});

describe('checkParamHeaders', () => {
  it('names the header that is absent while the body carries its argument', () => {
    expect(checkParamHeaders(declarations, { region: 'eu' }, headersOf({}))).toEqual({
      header: 'Mcp-Param-Region',
      reason: 'the body carries arguments.region="eu" but the Mcp-Param-Region header is absent',
    });
  });

  it('refuses a header that disagrees with the body, or carries broken Base64', () => {
    expect(checkParamHeaders(declarations, { region: 'eu' }, headersOf({ 'mcp-param-region': 'us' }))).toMatchObject({
      header: 'Mcp-Param-Region',
      reason: expect.stringContaining('says "us"'),
    });
    expect(
      checkParamHeaders(declarations, { region: 'Hello' }, headersOf({ 'Mcp-Param-Region': '=?base64?SGVsbG8?=' })),
    ).toMatchObject({ header: 'Mcp-Param-Region', reason: expect.stringContaining('not valid Base64') });
  });

  it('expects no header for an absent or null argument, and ignores one sent anyway', () => {
    expect(checkParamHeaders(declarations, { region: null }, headersOf({ 'Mcp-Param-Region': 'x' }))).toBeUndefined();
    expect(checkParamHeaders(declarations, undefined, headersOf({}))).toBeUndefined();
  });

  it('compares integers as numbers, and values without surrounding whitespace', () => {
    expect(checkParamHeaders(declarations, { priority: 42 }, headersOf({ 'Mcp-Param-Priority': '42.0' }))).toBe(
      undefined,
    );
    expect(checkParamHeaders(declarations, { region: 'eu' }, headersOf({ 'Mcp-Param-Region': '  eu\t' }))).toBe(
      undefined,
    );
    expect(
      checkParamHeaders(declarations, { nested: { flag: false } }, headersOf({ 'Mcp-Param-Flag': 'true' })),
    ).toMatchObject({ header: 'Mcp-Param-Flag' });
  });
});
