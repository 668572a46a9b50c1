import { describe, expect, it } from 'vitest';
import { ConfigError, SearchMcpError } from '../errors/index.js';
import { createSecretRedactor, noSecrets } from './secret-redactor.js';

describe('createSecretRedactor: redact', () => {
  it('masks every occurrence of every secret', () => {
    const redactor = createSecretRedactor(['alpha-secret', 'beta-secret']);
    expect(redactor.redact('a alpha-secret b beta-secret c alpha-secret')).toBe('a *** b *** c ***');
  });

  it('masks the longest secret first, so one that contains another is masked whole', () => {
    const redactor = createSecretRedactor(['abcd', 'abcd-efgh-ijkl']);
    expect(redactor.redact('x abcd-efgh-ijkl y abcd')).toBe('x *** y ***');
  });

  it('masks URL-encoded spellings, with %XX in either case and + for a space', () => {
    const secret = 'p@ss/w rd:ü';
    const redactor = createSecretRedactor([secret]);
    const encoded = encodeURIComponent(secret);
    expect(redactor.redact(`?key=${encoded}&x=1`)).toBe('?key=***&x=1');
    expect(encoded.toLowerCase()).not.toBe(encoded);
    expect(redactor.redact(`?key=${encoded.toLowerCase()}`)).toBe('?key=***');
    expect(redactor.redact(`key=${encoded.replace(/%20/g, '+')}`)).toBe('key=***');
  });

  it('masks JSON-escaped spellings, including \\/ and \\u escapes of ASCII-only encoders', () => {
    const secret = 'quo"te\\back/slash-é';
    const redactor = createSecretRedactor([secret]);
    expect(redactor.redact(JSON.stringify({ echoed: secret }))).toBe('{"echoed":"***"}');
    expect(redactor.redact('{"echoed":"quo\\"te\\\\back\\/slash-é"}')).toBe('{"echoed":"***"}');
    expect(redactor.redact('{"echoed":"quo\\"te\\\\back/slash-\\u00e9"}')).toBe('{"echoed":"***"}');
  });

  it('treats regular expression characters in a secret literally', () => {
    const redactor = createSecretRedactor(['a.b*c(d)[e]{2}$^|+?\\']);
    expect(redactor.redact('aXb*c(d)[e]{2}$^|+?\\ and a.b*c(d)[e]{2}$^|+?\\')).toBe('aXb*c(d)[e]{2}$^|+?\\ and ***');
  });

  it('ignores empty secrets and returns text without secrets unchanged', () => {
    const redactor = createSecretRedactor(['', 'secret-value']);
    expect(redactor.redact('nothing here')).toBe('nothing here');
    expect(createSecretRedactor([]).redact('any text')).toBe('any text');
    expect(createSecretRedactor([''])).toBe(noSecrets);
  });

  it('masks a secret in a large text in every place', () => {
    const secrets = Array.from({ length: 100 }, (_, index) => `canary-${index}-${'x'.repeat(index % 7)}z`);
    const redactor = createSecretRedactor(secrets);
    const parts: string[] = [];
    for (let index = 0; index < 20_000; index += 1)
      parts.push(index % 1000 === 0 ? (secrets[index % 100] ?? '') : 'plain text');
    const redacted = redactor.redact(parts.join('\n'));
    expect(redacted).not.toContain('canary-');
    expect(redacted.split('\n').filter((line) => line === '***')).toHaveLength(20);
  });
});

describe('createSecretRedactor: redactDeep', () => {
  const redactor = createSecretRedactor(['top-secret']);

  it('masks strings at every depth and copies only where needed', () => {
    const untouched = { a: 1, list: ['x'] };
    const value = { untouched, nested: { deep: ['ok', 'has top-secret inside'] }, number: 5, flag: true, none: null };
    const redacted = redactor.redactDeep(value);
    expect(redacted).toEqual({
      untouched,
      nested: { deep: ['ok', 'has *** inside'] },
      number: 5,
      flag: true,
      none: null,
    });
    expect(redacted).not.toBe(value);
    expect(redacted.untouched).toBe(untouched);
    expect(value.nested.deep[1]).toBe('has top-secret inside');
  });

  it('returns the same value when nothing needs masking', () => {
    const value = { a: ['b', { c: 'd' }] };
    expect(redactor.redactDeep(value)).toBe(value);
    expect(redactor.redactDeep('plain')).toBe('plain');
    expect(redactor.redactDeep(42)).toBe(42);
    expect(redactor.redactDeep(undefined)).toBeUndefined();
  });

  it('keeps a "__proto__" key an own key and null prototypes null', () => {
    const value = JSON.parse('{"__proto__": "top-secret", "x": 1}') as Record<string, unknown>;
    const redacted = redactor.redactDeep(value);
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(Object.keys(redacted)).toEqual(['__proto__', 'x']);
    expect(Object.getOwnPropertyDescriptor(redacted, '__proto__')?.value).toBe('***');
    const bare = Object.assign(Object.create(null) as Record<string, string>, { k: 'top-secret' });
    expect(Object.getPrototypeOf(redactor.redactDeep(bare))).toBeNull();
  });

  it('survives cycles', () => {
    const value: Record<string, unknown> = { text: 'top-secret' };
    value['self'] = value;
    const redacted = redactor.redactDeep(value);
    expect(redacted['text']).toBe('***');
    expect(redacted['self']).toBe(value);
  });

  it('masks an error message and stack, keeping its class and fields', () => {
    const error = new ConfigError({ issues: [{ path: 'x', message: 'top-secret leaked' }] });
    const redacted = redactor.redactDeep(error);
    expect(redacted).not.toBe(error);
    expect(ConfigError.isInstance(redacted)).toBe(true);
    expect(SearchMcpError.isInstance(redacted)).toBe(true);
    expect(redacted.message).not.toContain('top-secret');
    expect(redacted.stack).not.toContain('top-secret');
    expect(redacted.issues).toEqual([{ path: 'x', message: '*** leaked' }]);
    const clean = new Error('nothing');
    expect(redactor.redactDeep(clean)).toBe(clean);
  });

  it('leaves other objects as they are', () => {
    const date = new Date(0);
    const map = new Map([['k', 'top-secret']]);
    expect(redactor.redactDeep({ date, map })).toEqual({ date, map });
  });
});

describe('noSecrets', () => {
  it('changes nothing', () => {
    const value = { a: 'b' };
    expect(noSecrets.redact('top-secret')).toBe('top-secret');
    expect(noSecrets.redactDeep(value)).toBe(value);
  });
});
