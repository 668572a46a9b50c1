import { loadRealServerTools } from '@search-mcp/test-kit';
import { describe, expect, it } from 'vitest';
import { sampleCatalog, tool } from '../../test/search-test-tools.js';
import { Bm25SearchProvider } from './bm25-search-provider.js';

const realTools = loadRealServerTools();
const mailTool = tool('mail', 'send_email', 'Send an email message to one or more recipients', {
  inputSchema: { type: 'object', properties: { to: { type: 'string' }, subject: { type: 'string' } } },
});

async function best(queries: string[], tools = realTools, options = {}) {
  const [first] = await new Bm25SearchProvider(options).search({ queries, tools, maxResults: 5 });
  return first;
}

describe('Bm25SearchProvider: relevance that means something', () => {
  it('keeps the best hit below 1 when no tool covers the request, at 1 when one does', async () => {
    // The 22 real servers have no mail tool: the closest hit only shares "send" or mentions email in passing.
    const without = await best(['send an email']);
    expect(without?.relevance).toBeLessThan(1);
    const withMail = await best(['send an email'], [...realTools, mailTool]);
    expect(withMail).toMatchObject({ toolKey: 'mail:send_email', relevance: 1 });
    // The same in Japanese: the vocabulary's "email" is what no tool offers.
    expect((await best(['メールを送る']))?.relevance).toBeLessThan(1);
    expect(await best(['メールを送る'], [...realTools, mailTool])).toMatchObject({ relevance: 1 });
  });

  it('gives 1 to requests a tool covers, in English and Japanese', async () => {
    for (const query of ['post a message to a slack channel', 'fork repository', 'ファイルを読む', 'search the web']) {
      expect((await best([query]))?.relevance, query).toBe(1);
    }
  });

  it('judges several queries by the one the best hits cover best', async () => {
    const single = (await best(['send an email']))?.relevance ?? 0;
    expect((await best(['send an email', 'post a message to a slack channel']))?.relevance).toBe(1);
    expect(single).toBeLessThan(1);
  });

  it('scales every relevance by the best hit’s quality, keeping the order', async () => {
    const results = await new Bm25SearchProvider().search({
      queries: ['send an email'],
      tools: realTools,
      maxResults: 10,
    });
    const relevances = results.map((result) => result.relevance);
    expect(relevances).toEqual([...relevances].sort((a, b) => b - a));
    expect(Math.max(...relevances)).toBeLessThan(1);
  });

  it('counts a word no tool contains fully when it names a capability, little when it looks like a name', async () => {
    // "Zorblax" is no tool-domain word: likely the report's name, an argument.
    const named = (await best(['list the Zorblax directory'], sampleCatalog))?.relevance ?? 0;
    // "calendar" is one: the catalog lacks calendars.
    const capability = (await best(['list the calendar directory'], sampleCatalog))?.relevance ?? 0;
    expect(named).toBeGreaterThan(capability);
  });

  it('with goodMatch 1 gives the quality itself, with 0 the old scale (best = 1)', async () => {
    const quality = (await best(['send an email'], realTools, { goodMatch: 1 }))?.relevance ?? 0;
    const scaled = (await best(['send an email'], realTools))?.relevance ?? 0;
    expect(scaled).toBeCloseTo(Math.min(1, quality / 0.6), 6);
    expect((await best(['send an email'], realTools, { goodMatch: 0 }))?.relevance).toBe(1);
  });
});

describe('Bm25SearchProvider: deprecated tools', () => {
  it('ranks filesystem read_file (DEPRECATED: Use read_text_file instead) below read_text_file', async () => {
    for (const query of ['read a file', 'read the complete contents of a file as text', 'ファイルを読む']) {
      const keys = (await new Bm25SearchProvider().search({ queries: [query], tools: realTools, maxResults: 10 })).map(
        (result) => result.toolKey,
      );
      expect(keys, query).toContain('filesystem:read_file');
      expect(keys.indexOf('filesystem:read_text_file'), query).toBeLessThan(keys.indexOf('filesystem:read_file'));
    }
    // Off, the deprecated tool's shorter name puts it first for "read a file".
    const plain = await new Bm25SearchProvider({ deprecatedFactor: 1 }).search({
      queries: ['read a file'],
      tools: realTools,
      maxResults: 10,
    });
    const plainKeys = plain.map((result) => result.toolKey);
    expect(plainKeys.indexOf('filesystem:read_file')).toBeLessThan(plainKeys.indexOf('filesystem:read_text_file'));
  });

  it('stays below its replacement even when its own text matches much better', async () => {
    const tools = [
      tool('api', 'search_users_v1', 'Search users by name. Deprecated: use find_people instead.'),
      tool('api', 'find_people', 'Find people.'),
    ];
    const keys = (
      await new Bm25SearchProvider().search({ queries: ['search users by name'], tools, maxResults: 5 })
    ).map((result) => result.toolKey);
    expect(keys).toEqual(['api:find_people', 'api:search_users_v1']);
  });

  it('does not demote a tool that is about deprecation', async () => {
    const tools = [
      tool('npm', 'npm_deprecated', 'Check if packages are deprecated'),
      tool('npm', 'npm_versions', 'List the versions of packages'),
    ];
    const [first] = await new Bm25SearchProvider().search({
      queries: ['is this package deprecated'],
      tools,
      maxResults: 2,
    });
    expect(first).toMatchObject({ toolKey: 'npm:npm_deprecated', relevance: 1 });
  });
});
