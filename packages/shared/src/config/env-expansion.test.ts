import { describe, expect, it } from 'vitest';
import { containsInputReference, containsVariableReference, expandVariables } from './env-expansion.js';

describe('expandVariables', () => {
  it('expands ${VAR}', () => {
    expect(expandVariables('${HOME}/docs', { HOME: '/home/me' })).toMatchObject({
      value: '/home/me/docs',
      missing: [],
    });
    expect(expandVariables('${A}-${B}', { A: '1', B: '2' }).value).toBe('1-2');
  });

  it('treats an empty value as set for ${VAR}', () => {
    expect(expandVariables('[${EMPTY}]', { EMPTY: '' })).toMatchObject({ value: '[]', missing: [] });
  });

  it('reports unset variables without default, each once, in order', () => {
    expect(expandVariables('${B} ${A} ${B}', {})).toMatchObject({ value: '  ', missing: ['B', 'A'] });
  });

  it('uses the default when the variable is unset or empty (like the shell)', () => {
    expect(expandVariables('${X:-fallback}', {}).value).toBe('fallback');
    expect(expandVariables('${X:-fallback}', { X: undefined }).value).toBe('fallback');
    expect(expandVariables('${X:-fallback}', { X: '' }).value).toBe('fallback');
    expect(expandVariables('${X:-fallback}', { X: 'set' }).value).toBe('set');
    expect(expandVariables('${X:-}', {})).toMatchObject({ value: '', missing: [] });
    expect(expandVariables('${X:-a b:c/d}', {}).value).toBe('a b:c/d');
  });

  it('takes defaults literally', () => {
    expect(expandVariables('${X:-$Y}', { Y: 'no' }).value).toBe('$Y');
  });

  it('leaves text that is not a reference alone', () => {
    const env = { VAR: 'value' };
    expect(expandVariables('$VAR', env).value).toBe('$VAR');
    expect(expandVariables('${1X}', env).value).toBe('${1X}');
    expect(expandVariables('${VAR', env).value).toBe('${VAR');
    expect(expandVariables('${}', env).value).toBe('${}');
    expect(expandVariables('plain', env).value).toBe('plain');
  });

  it('does not read inherited properties of the environment object', () => {
    expect(expandVariables('${toString}', {})).toMatchObject({ value: '', missing: ['toString'] });
  });
});

describe('VS Code spellings', () => {
  it('reads ${env:VAR} as ${VAR}, with or without default', () => {
    expect(expandVariables('${env:HOME}/x ${env:NOPE:-d}', { HOME: '/h' })).toMatchObject({
      value: '/h/x d',
      missing: [],
    });
    expect(expandVariables('${env:NOPE}', {})).toMatchObject({ value: '', missing: ['NOPE'] });
    expect(containsVariableReference('${env:A}')).toBe(true);
  });

  it('leaves ${input:name} as written and tells it apart', () => {
    expect(expandVariables('${input:token}', { token: 'x' })).toMatchObject({ value: '${input:token}', missing: [] });
    expect(containsInputReference('Bearer ${input:token}')).toBe(true);
    expect(containsInputReference('${env:token}')).toBe(false);
  });
});

describe('containsVariableReference', () => {
  it('finds well-formed references only', () => {
    expect(containsVariableReference('a ${B} c')).toBe(true);
    expect(containsVariableReference('${B:-x}')).toBe(true);
    expect(containsVariableReference('$B')).toBe(false);
    expect(containsVariableReference('plain')).toBe(false);
  });

  it('gives the same answer on repeated calls', () => {
    expect(containsVariableReference('${A}')).toBe(true);
    expect(containsVariableReference('${A}')).toBe(true);
  });
});
