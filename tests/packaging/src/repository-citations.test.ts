import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from './workspace.js';

/**
 * Comments, tests and docs cite the repository's own docs (the README, the package READMEs, `docs/`), never a
 * document a clone does not have: the design notes the project started from (numbered "seeds") and the contract
 * file kept beside them. The patterns are written so that this file does not match them itself.
 */
const outsideDocuments: readonly { what: string; pattern: RegExp }[] = [
  { what: 'the contract file', pattern: /\bCONTRAC[T]\b/ },
  { what: 'a section of the contract file', pattern: /\bcontract\s*§/i },
  { what: 'a numbered design seed', pattern: /\bseeds?\s+\d{3}\b|\bseeds\/\d{3}/i },
];

/** Files that may say the words: historic benchmark output, and the MIT license ("an action of contract"). */
function exempt(path: string): boolean {
  return path.startsWith('bench/results/') || path === 'LICENSE';
}

/** Every file git tracks, as `path:line: text` for each line that cites an outside document. */
function outsideCitations(): string[] {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: repositoryRoot, encoding: 'utf8' })
    .split('\0')
    .filter((path) => path !== '' && !exempt(path));
  const found: string[] = [];
  for (const path of tracked) {
    const file = join(repositoryRoot, path);
    // A tracked file deleted in the working tree (a move not yet committed) has nothing to read.
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    if (text.includes('\0')) continue;
    text.split(/\r?\n/).forEach((line, index) => {
      const hit = outsideDocuments.find(({ pattern }) => pattern.test(line));
      if (hit) found.push(`${path}:${index + 1}: ${line.trim()} (cites ${hit.what})`);
    });
  }
  return found;
}

describe('the repository speaks of itself', () => {
  it('cites only documents it holds (README, package READMEs, docs/), in every tracked file', () => {
    expect(outsideCitations()).toEqual([]);
  });
});
