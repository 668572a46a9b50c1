/**
 * Pins the exact ranking of the BM25 provider over the 237 real-server tools (fixtures/real-servers): the same hits in
 * the same order with the same relevance, for English, Japanese, multi-query and context requests. The index build
 * is tuned for speed (bm25f-index.ts, tool-documents.ts); none of that may move a result. The expected lists are the
 * rankings of the build before that work; a change of ranking is a deliberate change of this file, with
 * bench/results/search.md showing why.
 *
 * The same requests are also answered from indexes the provider built incrementally (tools it had seen re-used, a
 * changed and an added tool re-read) and must match a fresh provider exactly.
 */
import type { ToolInfo } from '@search-mcp/shared';
import { loadRealServerTools } from '@search-mcp/test-kit';
import { describe, expect, it } from 'vitest';
import { Bm25SearchProvider } from '../../providers/bm25-search-provider.js';

interface PinnedRanking {
  queries: string[];
  context?: string;
  /** `toolKey relevance` of the first 8 results, relevance to 6 decimals. */
  top: string[];
}

const PINNED: PinnedRanking[] = [
  {
    queries: ['read a file from disk'],
    top: [
      'filesystem:read_multiple_files 0.652809',
      'filesystem:read_text_file 0.648159',
      'filesystem:read_media_file 0.607228',
      'supabase-nodocs:apply_migration 0.405807',
      'filesystem:get_file_info 0.395652',
      'supabase-nodocs:execute_sql 0.382435',
      'filesystem:read_file 0.369735',
      'everything:gzip-file-as-resource 0.321843',
    ],
  },
  {
    queries: ['open a pull request on GitHub'],
    top: [
      'github:create_pull_request 1.000000',
      'github:search_issues 0.656469',
      'github:list_pull_requests 0.583153',
      'github:update_issue 0.450801',
      'github:list_issues 0.429750',
      'github:get_pull_request 0.390795',
      'github:merge_pull_request 0.388913',
      'github:get_pull_request_reviews 0.365592',
    ],
  },
  {
    queries: ['post a message to a slack channel'],
    top: [
      'slack:slack_post_message 1.000000',
      'slack:slack_get_channel_history 0.514337',
      'slack:slack_add_reaction 0.412877',
      'slack:slack_reply_to_thread 0.399678',
      'slack:slack_get_thread_replies 0.373940',
      'slack:slack_list_channels 0.339311',
      'slack:slack_get_users 0.075714',
      'slack:slack_get_user_profile 0.071670',
    ],
  },
  {
    queries: ['get the logs of a kubernetes pod'],
    top: [
      'kubernetes:kubectl_logs 1.000000',
      'kubernetes:kubectl_get 0.342751',
      'kubernetes:exec_in_pod 0.342320',
      'kubernetes:explain_resource 0.289858',
      'supabase-nodocs:query_logs 0.205018',
      'everything:toggle-simulated-logging 0.185729',
      'kubernetes:kubectl_describe 0.170432',
      'kubernetes:node_management 0.168260',
    ],
  },
  {
    queries: ['take a screenshot of the page'],
    top: [
      'playwright:browser_take_screenshot 1.000000',
      'puppeteer:puppeteer_screenshot 0.982676',
      'playwright:browser_snapshot 0.379118',
      'firecrawl:firecrawl_interact 0.225415',
      'supabase-nodocs:create_project 0.138168',
      'firecrawl:firecrawl_scrape 0.136022',
      'firecrawl:firecrawl_crawl 0.116867',
      'firecrawl:firecrawl_search 0.097572',
    ],
  },
  {
    queries: ['search the web for recent news'],
    top: [
      'brave-search:brave_web_search 1.000000',
      'tavily:tavily_search 0.395866',
      'firecrawl:firecrawl_search 0.386469',
      'firecrawl:firecrawl_monitor_create 0.288008',
      'brave-search:brave_local_search 0.258287',
      'firecrawl:firecrawl_search_feedback 0.195159',
      'firecrawl:firecrawl_extract 0.190535',
      'firecrawl:firecrawl_research_search_papers 0.147310',
    ],
  },
  {
    queries: ['run a SQL query against the database'],
    top: [
      'supabase-nodocs:execute_sql 1.000000',
      'postgres:query 0.707750',
      'supabase-nodocs:query_logs 0.621966',
      'supabase-nodocs:apply_migration 0.538400',
      'memory:search_nodes 0.248724',
      'playwright:browser_run_code_unsafe 0.238401',
      'firecrawl:firecrawl_research_search_papers 0.217029',
      'notion:API-post-search 0.181579',
    ],
  },
  {
    queries: ['create an issue', 'add a label'],
    context: 'triage the bug reports of our GitHub repository',
    top: [
      'github:create_issue 1.000000',
      'gitlab:create_issue 0.988464',
      'memory:add_observations 0.929100',
      'github:add_issue_comment 0.716101',
      'slack:slack_add_reaction 0.672523',
      'github:list_issues 0.554135',
      'github:search_issues 0.507229',
      'kubernetes:kubectl_delete 0.460492',
    ],
  },
  {
    queries: ['list files in a directory, then delete the old ones and commit the change'],
    top: [
      'filesystem:edit_file 1.000000',
      'filesystem:list_directory 0.689312',
      'redis:delete 0.674879',
      'filesystem:list_directory_with_sizes 0.603159',
      'filesystem:list_allowed_directories 0.458348',
      'gitlab:get_file_contents 0.344988',
      'github:list_commits 0.343390',
      'filesystem:read_multiple_files 0.339896',
    ],
  },
  {
    queries: ['ファイルを読む'],
    top: [
      'filesystem:get_file_info 1.000000',
      'filesystem:read_multiple_files 0.996310',
      'filesystem:read_text_file 0.989214',
      'filesystem:read_media_file 0.926745',
      'supabase-nodocs:apply_migration 0.619339',
      'supabase-nodocs:execute_sql 0.583668',
      'filesystem:read_file 0.564285',
      'filesystem:directory_tree 0.545626',
    ],
  },
  {
    queries: ['k8sのポッドのログ'],
    top: [
      'kubernetes:kubectl_logs 1.000000',
      'supabase-nodocs:query_logs 0.376739',
      'everything:toggle-simulated-logging 0.341294',
      'kubernetes:exec_in_pod 0.334933',
      'kubernetes:explain_resource 0.148437',
      'kubernetes:kubectl_describe 0.119764',
      'kubernetes:node_management 0.119158',
      'kubernetes:kubectl_get 0.115687',
    ],
  },
  {
    queries: ['ブラウザでスクリーンショットを撮る'],
    top: [
      'playwright:browser_take_screenshot 1.000000',
      'puppeteer:puppeteer_screenshot 0.791243',
      'playwright:browser_snapshot 0.754933',
      'playwright:browser_find 0.317566',
      'firecrawl:firecrawl_interact 0.170499',
      'supabase-nodocs:create_project 0.106165',
      'playwright:browser_resize 0.098711',
      'playwright:browser_tabs 0.093318',
    ],
  },
];

function ranking(provider: Bm25SearchProvider, pinned: PinnedRanking, tools: readonly ToolInfo[]): string[] {
  const request = { queries: pinned.queries, tools, maxResults: 8 };
  const results = provider.searchSync(pinned.context === undefined ? request : { ...request, context: pinned.context });
  return results.map((result) => `${result.toolKey} ${result.relevance.toFixed(6)}`);
}

describe('Bm25SearchProvider: pinned ranking over the real servers', () => {
  const tools = loadRealServerTools();

  it.each(PINNED.map((pinned) => [pinned.queries.join(' | '), pinned] as const))('%s', (_, pinned) => {
    expect(tools.length).toBe(237);
    expect(ranking(new Bm25SearchProvider(), pinned, tools)).toEqual(pinned.top);
  });

  it('ranks the same from an index rebuilt around a changed and an added tool as a fresh provider does', () => {
    const provider = new Bm25SearchProvider();
    for (const pinned of PINNED) expect(ranking(provider, pinned, tools)).toEqual(pinned.top);
    const changedAt = tools.findIndex((tool) => tool.toolKey === 'github:create_pull_request');
    const changed = tools.slice();
    const original = changed[changedAt] as ToolInfo;
    changed[changedAt] = {
      ...original,
      description: `${original.description ?? ''} Opens a merge request for review.`,
    };
    changed.push({
      ...original,
      toolKey: 'gitlab:create_merge_request',
      toolName: 'create_merge_request',
      serverName: 'gitlab',
    });
    const fresh = new Bm25SearchProvider();
    for (const pinned of PINNED) {
      expect(ranking(provider, pinned, changed)).toEqual(ranking(fresh, pinned, changed));
    }
    // And back to the first set: the pinned answers again.
    for (const pinned of PINNED) expect(ranking(provider, pinned, tools.slice())).toEqual(pinned.top);
  });
});
