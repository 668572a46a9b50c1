import { describe, expect, it } from 'vitest';
import { LogLevels } from './log-levels.js';

describe('LogLevels', () => {
  it('lets everything through to a session that set no level', () => {
    const levels = new LogLevels();
    expect(levels.passes('a', 'debug')).toBe(true);
    expect(levels.backendLevel()).toBeUndefined();
  });

  it('filters per session and tells backends the most verbose level asked for', () => {
    const levels = new LogLevels();
    expect(levels.set('a', 'warning')).toBe('warning');
    expect(levels.set('b', 'info')).toBe('info');
    expect(levels.passes('a', 'info')).toBe(false);
    expect(levels.passes('a', 'error')).toBe(true);
    expect(levels.passes('a', 'warning')).toBe(true);
    expect(levels.passes('b', 'info')).toBe(true);
    expect(levels.passes('b', 'debug')).toBe(false);
    expect(levels.delete('b')).toBe('warning');
    expect(levels.delete('a')).toBeUndefined();
  });
});
