import { describe, expect, it } from 'vitest';
import { emptySearchMatch, judgeSearchMatch } from './search-match.js';

const hits = (...relevances: number[]) => relevances.map((relevance, index) => ({ toolKey: `s:t${index}`, relevance }));

describe('judgeSearchMatch', () => {
  it('is good when the best hit is at 1, with no notice', () => {
    expect(judgeSearchMatch(hits(1, 0.4), ['read a file'])).toEqual({ match: 'good' });
  });

  it('is weak below 1, naming the request and the closest three with their relevance', () => {
    expect(judgeSearchMatch(hits(0.83, 0.5, 0.31, 0.2), ['send an email'])).toEqual({
      match: 'weak',
      notice: "no tool matches 'send an email' well; the closest are s:t0 (0.83), s:t1 (0.50), s:t2 (0.31).",
    });
  });

  it('is none below 0.5 and without hits, with advice on what to do', () => {
    const none = judgeSearchMatch(hits(0.3), ['book a flight', 'reserve a plane seat']);
    expect(none.match).toBe('none');
    expect(none.notice).toBe(
      "no tool matches 'book a flight' / 'reserve a plane seat'; the closest, unlikely to fit, are s:t0 (0.30). " +
        "Rephrase with the action's words (verb + object), or a server offering it may not be connected.",
    );
    expect(judgeSearchMatch([], ['x'.repeat(200), 'b', 'c', 'd'])).toEqual({
      match: 'none',
      notice: `no tool matches '${'x'.repeat(59)}…' / 'b' / 'c' / …. Rephrase with the action's words (verb + object), or a server offering it may not be connected.`,
    });
  });

  it('says why nothing was ranked', () => {
    expect(emptySearchMatch('no-tools').match).toBe('none');
    expect(emptySearchMatch('off').notice).toContain('tool search is off');
  });
});
