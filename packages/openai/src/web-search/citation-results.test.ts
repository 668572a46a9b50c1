import type { Response as OpenAiResponse } from 'openai/resources/responses/responses';
import { citedOutput, type FakeOutputText } from '@search-mcp/test-kit';
import { describe, expect, it } from 'vitest';
import { citedResults, refusalOf } from './citation-results.js';

/** A completed response whose message holds `parts`, shaped as the API sends it. */
function responseWith(parts: FakeOutputText[]): OpenAiResponse {
  return {
    id: 'resp_1',
    object: 'response',
    status: 'completed',
    model: 'o3-2025-04-16',
    output: [
      { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'q' } },
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: parts.map((part) => ({ type: 'output_text', text: part.text, annotations: part.annotations })),
      },
    ],
  } as unknown as OpenAiResponse;
}

/** An annotation over `marker` in `text` (its first occurrence at or after `from`). */
function cite(text: string, marker: string, url: string, title = 'T', from = 0) {
  const start = text.indexOf(marker, from);
  if (start < 0) throw new Error(`marker ${marker} not in text`);
  return { type: 'url_citation' as const, start_index: start, end_index: start + marker.length, title, url };
}

describe('citedResults', () => {
  it('makes one result per cited source: title, URL without tracking, snippet, date, position score', () => {
    const output = citedOutput([
      { url: 'https://example.com/a', title: 'A page', text: 'Alpha says **one** thing.', publishedDate: '2025-03-01' },
      { url: 'https://example.org/b?id=7', title: 'B page', text: 'Beta says another.' },
    ]);
    const { results, total } = citedResults(responseWith([output]), 10);
    expect(total).toBe(2);
    expect(results).toEqual([
      {
        title: 'A page',
        url: 'https://example.com/a',
        snippet: 'Alpha says one thing.',
        publishedDate: '2025-03-01',
        relevanceScore: 1,
      },
      { title: 'B page', url: 'https://example.org/b?id=7', snippet: 'Beta says another.', relevanceScore: 0.5 },
    ]);
  });

  it('deduplicates by URL (tracking parameters, fragment, trailing slash, www, host case) and keeps the first', () => {
    const output = citedOutput([
      { url: 'https://example.com/docs/', title: 'Docs', text: 'First mention.' },
      {
        url: 'https://WWW.example.com/docs#intro',
        title: 'Docs again',
        text: 'Second mention.',
        publishedDate: '2024-01-02',
      },
      { url: 'https://example.com/other', title: 'Other', text: 'Another source.' },
    ]);
    const { results, total } = citedResults(responseWith([output]), 10);
    expect(total).toBe(2);
    expect(results[0]).toMatchObject({ title: 'Docs', snippet: 'First mention.', publishedDate: '2024-01-02' });
    expect(results[1]?.url).toBe('https://example.com/other');
  });

  it('cuts to limit and reports how many there were', () => {
    const output = citedOutput(
      Array.from({ length: 5 }, (_, index) => ({
        url: `https://example.com/${index}`,
        title: `Page ${index}`,
        text: `Source ${index}.`,
      })),
    );
    const { results, total } = citedResults(responseWith([output]), 2);
    expect(total).toBe(5);
    expect(results.map((result) => result.url)).toEqual(['https://example.com/0', 'https://example.com/1']);
    expect(results.map((result) => result.relevanceScore)).toEqual([1, 0.8]);
  });

  it('gives each of several citations on one line the line without any citation', () => {
    const text = 'Both agree that X holds ([a.com](https://a.com/x)) ([b.com](https://b.com/y)).';
    const output: FakeOutputText = {
      text,
      annotations: [
        cite(text, '([a.com](https://a.com/x))', 'https://a.com/x', 'A'),
        cite(text, '([b.com](https://b.com/y))', 'https://b.com/y', 'B'),
      ],
    };
    const { results } = citedResults(responseWith([output]), 10);
    expect(results.map((result) => result.snippet)).toEqual(['Both agree that X holds.', 'Both agree that X holds.']);
  });

  it('keeps the sentences before the citation out of a long paragraph', () => {
    const filler = 'Unrelated background sentence number one that goes on for a while. '.repeat(6);
    const text = `${filler}The new release fixes the memory leak. ([r.io](https://r.io/notes)) More text follows here.`;
    const output: FakeOutputText = {
      text,
      annotations: [cite(text, '([r.io](https://r.io/notes))', 'https://r.io/notes')],
    };
    const [result] = citedResults(responseWith([output]), 10).results;
    expect(result?.snippet.endsWith('The new release fixes the memory leak.')).toBe(true);
    expect(result?.snippet.length).toBeLessThanOrEqual(300);
  });

  it('maps code-point indices to string indices when the text has emoji', () => {
    const prefix = '🚀 Launch news 🎉 today ';
    const marker = '([s.com](https://s.com/launch))';
    const text = `${prefix}${marker}`;
    const codePointStart = Array.from(prefix).length;
    const output: FakeOutputText = {
      text,
      annotations: [
        {
          type: 'url_citation',
          start_index: codePointStart,
          end_index: codePointStart + marker.length,
          title: 'Launch',
          url: 'https://s.com/launch',
        },
      ],
    };
    const [result] = citedResults(responseWith([output]), 10).results;
    expect(result?.snippet).toBe('🚀 Launch news 🎉 today');
  });

  it('uses the host as the title when the citation has none, and drops non-web URLs', () => {
    const text = 'One ([x](https://www.docs.dev/p)). Two ([y](ftp://files.dev/f)).';
    const output: FakeOutputText = {
      text,
      annotations: [
        cite(text, '([x](https://www.docs.dev/p))', 'https://www.docs.dev/p', ''),
        cite(text, '([y](ftp://files.dev/f))', 'ftp://files.dev/f'),
      ],
    };
    const { results } = citedResults(responseWith([output]), 10);
    expect(results).toHaveLength(1);
    expect(results[0]?.title).toBe('docs.dev');
  });

  it('ignores invalid dates and finds ISO dates without "published"', () => {
    const text =
      '- Version 2 shipped on 2025-13-40 (ok) ([a](https://a.dev))\n- Changelog from 2024-11-05 ([b](https://b.dev))';
    const output: FakeOutputText = {
      text,
      annotations: [
        cite(text, '([a](https://a.dev))', 'https://a.dev'),
        cite(text, '([b](https://b.dev))', 'https://b.dev'),
      ],
    };
    const { results } = citedResults(responseWith([output]), 10);
    expect(results[0]?.publishedDate).toBeUndefined();
    expect(results[1]?.publishedDate).toBe('2024-11-05');
  });

  it('returns nothing for a message without citations, and finds a refusal', () => {
    expect(citedResults(responseWith([{ text: 'I could not find anything.', annotations: [] }]), 10)).toEqual({
      results: [],
      total: 0,
    });
    const refused = {
      ...responseWith([]),
      output: [
        { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot help with that.' }] },
      ],
    } as unknown as OpenAiResponse;
    expect(refusalOf(refused)).toBe('I cannot help with that.');
    expect(refusalOf(responseWith([]))).toBeUndefined();
  });
});
