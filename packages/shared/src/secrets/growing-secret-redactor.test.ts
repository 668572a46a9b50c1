import { describe, expect, it } from 'vitest';
import { createGrowingSecretRedactor } from './growing-secret-redactor.js';

describe('createGrowingSecretRedactor', () => {
  it('masks the secrets it started with and those added later, and forgets none', () => {
    const redactor = createGrowingSecretRedactor(['first-secret-value']);
    expect(redactor.redact('a first-secret-value and a second-secret-value')).toBe('a *** and a second-secret-value');
    redactor.add(['second-secret-value']);
    redactor.add([]);
    expect(redactor.redact('a first-secret-value and a second-secret-value')).toBe('a *** and a ***');
    expect(redactor.redactDeep({ list: ['second-secret-value'], kept: 1 })).toEqual({ list: ['***'], kept: 1 });
  });
});
