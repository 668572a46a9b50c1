import { readRealServerDefinitions, realServerNames } from '@search-mcp/test-kit/real-servers';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from './token-estimate.js';

/**
 * Claude tokens of each recorded server's `tools/list` JSON, counted once with Anthropic's tokenizer
 * (`@anthropic-ai/tokenizer` 0.0.4, NFKC, special tokens allowed: what `doctor` counted before the estimate).
 * `bench/install-bench.ts` recounts them with the tokenizer.
 */
const tokenizerCounts: Record<string, number> = {
  'aws-kb-retrieval': 105,
  'brave-search': 327,
  context7: 1113,
  everart: 250,
  everything: 1769,
  filesystem: 2917,
  firecrawl: 17690,
  gdrive: 42,
  github: 3643,
  gitlab: 1261,
  'google-maps': 549,
  kubernetes: 5376,
  memory: 2395,
  notion: 17875,
  playwright: 4536,
  postgres: 33,
  puppeteer: 540,
  redis: 221,
  'sequential-thinking': 1070,
  slack: 695,
  'supabase-nodocs': 4886,
  tavily: 1706,
};

describe('estimateTokens', () => {
  const servers = realServerNames();

  it('covers every recorded server', () => {
    expect(servers).toEqual(Object.keys(tokenizerCounts).sort());
  });

  it("stays within 5 % of Anthropic's tokenizer on each server's tools/list and 2 % on their sum", () => {
    let estimated = 0;
    let counted = 0;
    const off: string[] = [];
    for (const server of servers) {
      const estimate = estimateTokens(JSON.stringify(readRealServerDefinitions(server)));
      const reference = tokenizerCounts[server] ?? Number.NaN;
      if (Math.abs(estimate - reference) / reference > 0.05) off.push(`${server}: ${estimate} vs ${reference}`);
      estimated += estimate;
      counted += reference;
    }
    expect(off).toEqual([]);
    expect(Math.abs(estimated - counted) / counted).toBeLessThan(0.02);
  });

  it('counts text outside ASCII about one token a character, and nothing as nothing', () => {
    // The tokenizer counts 10 tokens for this 9-character phrase.
    expect(estimateTokens('ファイルに書き込む')).toBeGreaterThanOrEqual(8);
    expect(estimateTokens('ファイルに書き込む')).toBeLessThanOrEqual(10);
    expect(estimateTokens('')).toBe(0);
  });
});
