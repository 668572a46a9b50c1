import { describe, expect, it } from 'vitest';
import { splitClauses } from './query-clauses.js';

describe('splitClauses', () => {
  it('splits a task at sentence ends and "then"', () => {
    const task =
      'Read the file notes.txt from disk, then post a message to the slack channel. Finally take a screenshot.';
    expect(splitClauses(task)).toEqual([
      'Read the file notes.txt from disk',
      'post a message to the slack channel',
      'Finally take a screenshot',
    ]);
  });
});
