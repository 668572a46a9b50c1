import { describe, expect, it } from 'vitest';
import { closestName, editDistance, nearestNames } from './nearest-names.js';

describe('nearestNames', () => {
  it('finds what a typo, a case or separator change, or a prefix meant', () => {
    expect(closestName('githb', ['github', 'gitlab', 'memory'])).toBe('github');
    expect(closestName('GitHub', ['github'])).toBe('github');
    expect(closestName('file_system', ['filesystem'])).toBe('filesystem');
    expect(closestName('mem', ['memory', 'github'])).toBe('memory');
    expect(closestName('enviro', ['env', 'args'])).toBe('env');
    expect(closestName('evrything', ['filesystem', 'everything'])).toBe('everything');
  });

  it('ranks nearest first and stops at the limit', () => {
    expect(nearestNames('get-sun', ['echo', 'get-sum', 'get-env', 'get-tiny-image'])).toEqual(['get-sum']);
    expect(nearestNames('get-sums', ['get-sum', 'get-env', 'echo'])).toEqual(['get-sum']);
    expect(nearestNames('read', ['read_file', 'read_text_file', 'reader', 'write_file'], 2)).toEqual([
      'reader',
      'read_file',
    ]);
  });

  it('suggests nothing when nothing is close', () => {
    expect(closestName('kubernetes', ['github', 'memory'])).toBeUndefined();
    expect(closestName('', ['github'])).toBeUndefined();
    expect(nearestNames('zzz', ['args', 'env'])).toEqual([]);
  });

  it('counts an adjacent swap once and gives up past the limit', () => {
    expect(editDistance('hedaers', 'headers')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('a'.repeat(20), 'b'.repeat(20), 2)).toBe(3);
  });
});
