import { describe, expect, it } from 'vitest';
import { isLoggingLevel } from './logging-level.js';

describe('isLoggingLevel', () => {
  it('knows the spec’s level names', () => {
    expect(isLoggingLevel('emergency')).toBe(true);
    expect(isLoggingLevel('verbose')).toBe(false);
    expect(isLoggingLevel(3)).toBe(false);
  });
});
