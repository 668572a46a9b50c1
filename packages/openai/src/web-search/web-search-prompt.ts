/**
 * What the model is asked. The hosted `web_search` tool finds the pages; the model writes one line per source with
 * its citation, and the results are read from those citations (`citation-results.ts`). Nothing is forced into a
 * function call: a model made to "return search results as JSON" writes plausible URLs it never visited.
 */
import type { WebSearchParams, WebSearchTimeframe } from './web-search-types.js';

export const webSearchInstructions = [
  'You are a web search engine. Always search the web with the web_search tool; never answer from memory.',
  'Write one line per source, most relevant first, and nothing else (no introduction, no conclusion):',
  '- one or two sentences on what the source says about the query, then (published YYYY-MM-DD) when the page',
  '  shows a publication date, then the citation of that source.',
  'Cite every source you list; list each source once.',
].join('\n');

const timeframeText: Record<WebSearchTimeframe, string> = {
  recent: 'Prefer the most recent sources, from the last few days.',
  past_week: 'Only use sources published in the past 7 days.',
  past_month: 'Only use sources published in the past 30 days.',
  past_year: 'Only use sources published in the past 12 months.',
};

/** The `input` of the request: the query, how many sources, and the language and time constraints. */
export function webSearchInput(params: WebSearchParams, limit: number, today: Date): string {
  const lines = [`Search the web for: ${params.query.trim()}`, `Find up to ${limit} distinct, relevant sources.`];
  if (params.timeframe) {
    lines.push(`Today is ${today.toISOString().slice(0, 10)}. ${timeframeText[params.timeframe]}`);
  }
  const language = params.language?.trim();
  if (language && language.toLowerCase() !== 'auto') {
    lines.push(`Write in this language and prefer sources in it: ${language}.`);
  }
  return lines.join('\n');
}
