import { describe, expect, it } from 'vitest';
import { isServerVisibleToProject } from './project-visibility.js';

describe('isServerVisibleToProject', () => {
  it('shows a caller without a project only servers without projects', () => {
    expect(isServerVisibleToProject(undefined, undefined)).toBe(true);
    expect(isServerVisibleToProject(['web'], undefined)).toBe(false);
    expect(isServerVisibleToProject([], undefined)).toBe(false);
  });

  it('shows a project only the servers that list it, never the ones without projects', () => {
    expect(isServerVisibleToProject(['web', 'ops'], 'ops')).toBe(true);
    expect(isServerVisibleToProject(['web'], 'ops')).toBe(false);
    expect(isServerVisibleToProject(undefined, 'ops')).toBe(false);
    expect(isServerVisibleToProject([], 'ops')).toBe(false);
  });
});
