/**
 * Search results from a finished response: one per `url_citation` annotation of the model's message, in the order
 * the model wrote them, deduplicated by URL. The snippet is the model's line around the citation (its markdown and
 * the citation itself removed), the date the `(published YYYY-MM-DD)` it wrote there. Nothing is invented: a
 * source the model did not cite is not a result.
 */
import { truncateText } from '@search-mcp/shared';
import type { Response as OpenAiResponse } from 'openai/resources/responses/responses';
import type { WebSearchResult } from './web-search-types.js';

const maxSnippetLength = 300;

interface Citation {
  url: string;
  title: string;
  start: number;
  end: number;
}

interface CitedText {
  text: string;
  citations: Citation[];
}

export interface CitedResults {
  /** Unique sources, best first, at most `limit`. */
  results: WebSearchResult[];
  /** How many unique sources were cited before the cut to `limit`. */
  total: number;
}

export function citedResults(response: OpenAiResponse, limit: number): CitedResults {
  const found: WebSearchResult[] = [];
  const byKey = new Map<string, WebSearchResult>();
  for (const part of citedTexts(response)) {
    for (const citation of part.citations) {
      const url = withoutTracking(citation.url);
      if (!url) continue;
      const key = urlKey(url);
      const { snippet, publishedDate } = describeCitation(part, citation);
      const seen = byKey.get(key);
      if (seen) {
        // The first mention ranks; a later one may still know the date or say more.
        if (!seen.publishedDate && publishedDate) seen.publishedDate = publishedDate;
        if (!seen.snippet && snippet) seen.snippet = snippet;
        continue;
      }
      const result: WebSearchResult = { title: citation.title.trim() || hostName(url), url, snippet };
      if (publishedDate) result.publishedDate = publishedDate;
      byKey.set(key, result);
      found.push(result);
    }
  }
  found.forEach((result, index) => {
    result.relevanceScore = Math.round((1 - index / found.length) * 100) / 100;
  });
  return { results: found.slice(0, limit), total: found.length };
}

/** The refusal of the model's message, if it refused. */
export function refusalOf(response: OpenAiResponse): string | undefined {
  for (const item of response.output ?? []) {
    if (item.type !== 'message') continue;
    for (const part of item.content ?? []) {
      if (part.type === 'refusal') return part.refusal;
    }
  }
  return undefined;
}

function citedTexts(response: OpenAiResponse): CitedText[] {
  const texts: CitedText[] = [];
  for (const item of response.output ?? []) {
    if (item.type !== 'message') continue;
    for (const part of item.content ?? []) {
      if (part.type !== 'output_text' || typeof part.text !== 'string') continue;
      const citations: Citation[] = [];
      for (const annotation of part.annotations ?? []) {
        if (annotation.type !== 'url_citation' || typeof annotation.url !== 'string') continue;
        const range = citationRange(part.text, annotation.start_index, annotation.end_index, annotation.url);
        citations.push({ url: annotation.url, title: String(annotation.title ?? ''), ...range });
      }
      citations.sort((a, b) => a.start - b.start);
      texts.push({ text: part.text, citations });
    }
  }
  return texts;
}

/**
 * The citation's range in UTF-16 units. The API's indices count characters; they match JavaScript's string indices
 * unless the text has characters outside the BMP (emoji), where they may count code points. Of the two readings the
 * one that looks like a citation wins: it holds the URL and is bracketed like `([host](url))`.
 */
function citationRange(text: string, start: unknown, end: unknown, url: string): { start: number; end: number } {
  const clamp = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) ? Math.min(text.length, Math.max(0, Math.trunc(value))) : 0;
  const direct = { start: clamp(start), end: Math.max(clamp(start), clamp(end)) };
  if (!/[\uD800-\uDBFF]/.test(text)) return direct;
  const codePoints = Array.from(text);
  const toUnits = (index: number) => codePoints.slice(0, index).join('').length;
  const mapped = { start: toUnits(direct.start), end: toUnits(direct.end) };
  const fit = (range: { start: number; end: number }) => {
    const slice = text.slice(range.start, range.end).trim();
    return (slice.includes(url) ? 2 : 0) + (/^[([]/.test(slice) ? 1 : 0) + (/[)\]]$/.test(slice) ? 1 : 0);
  };
  return fit(mapped) > fit(direct) ? mapped : direct;
}

function describeCitation(part: CitedText, citation: Citation): { snippet: string; publishedDate?: string } {
  const { text } = part;
  const lineStart = text.lastIndexOf('\n', Math.max(0, citation.start - 1)) + 1;
  const newline = text.indexOf('\n', citation.end);
  const lineEnd = newline === -1 ? text.length : newline;
  // The line without any citation in it (a line may cite several sources).
  let line = '';
  let cursor = lineStart;
  for (const other of part.citations) {
    if (other.end <= lineStart || other.start >= lineEnd) continue;
    if (other.start > cursor) line += text.slice(cursor, other.start);
    cursor = Math.max(cursor, other.end);
  }
  if (cursor < lineEnd) line += text.slice(cursor, lineEnd);

  const publishedDate = dateIn(line);
  let snippet = cleanLine(line);
  if (snippet.length > maxSnippetLength) {
    // A long paragraph: keep the sentences just before the citation, which are the ones it supports.
    const before = cleanLine(text.slice(lineStart, citation.start));
    snippet = lastSentences(before) || snippet;
  }
  return { snippet: truncateText(snippet, maxSnippetLength), ...(publishedDate ? { publishedDate } : {}) };
}

const publishedPattern = /\(?\s*(?:published|updated|dated|公開|更新)[:：\s]*(\d{4}-\d{2}(?:-\d{2})?)\s*\)?/i;
const isoDatePattern = /\b(\d{4})-(\d{2})(?:-(\d{2}))?\b/;

function dateIn(line: string): string | undefined {
  const date = publishedPattern.exec(line)?.[1] ?? isoDatePattern.exec(line)?.[0];
  if (!date) return undefined;
  const [year, month, day] = date.split('-').map(Number);
  if (!year || !month || month > 12 || (day !== undefined && (day < 1 || day > 31))) return undefined;
  return date;
}

function cleanLine(line: string): string {
  return line
    .replace(publishedPattern, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // markdown links and images → their text
    .replace(/\(\s*\)|\[\s*\]/g, ' ') // brackets a removed citation left empty
    .replace(/^\s*(?:#{1,6}\s+|[-*•]\s+|\d{1,3}[.)]\s+)/, '') // heading, bullet or number
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s+([.,;:!?。、])/g, '$1')
    .replace(/[\s—–-]+$/, '')
    .trim();
}

function lastSentences(text: string): string {
  const sentences = text.match(/[^.!?。！？]+[.!?。！？]*/g) ?? [];
  let kept = '';
  for (let index = sentences.length - 1; index >= 0 && kept.length < 120; index -= 1) {
    kept = `${sentences[index]?.trim() ?? ''} ${kept}`.trim();
  }
  return kept;
}

const trackingParameter = /^(?:utm_[a-z]+|fbclid|gclid)$/i;

/** The URL without tracking parameters (the search tool adds `utm_source=openai`); undefined if not http(s). */
function withoutTracking(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  for (const name of [...parsed.searchParams.keys()]) {
    if (trackingParameter.test(name)) parsed.searchParams.delete(name);
  }
  return parsed.toString();
}

/** Two URLs are one source when they differ only in case of the host, a fragment, or a trailing slash. */
function urlKey(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  const path = parsed.pathname.replace(/\/+$/, '');
  return `${parsed.protocol}//${parsed.host.toLowerCase().replace(/^www\./, '')}${path}${parsed.search}`;
}

function hostName(url: string): string {
  return new URL(url).hostname.replace(/^www\./, '');
}
