import type { ToolInfo } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { identifierWords, toolEmbeddingText } from './tool-embedding-text.js';

function tool(extra: Partial<ToolInfo>): ToolInfo {
  return {
    toolKey: 'slack:slack_post_message',
    toolName: 'slack_post_message',
    serverName: 'slack',
    description: '',
    inputSchema: { type: 'object' },
    ...extra,
  };
}

describe('toolEmbeddingText', () => {
  it('is "server, name words: description, parameter names"', () => {
    const text = toolEmbeddingText(
      tool({
        description: 'Post a new message to a Slack channel',
        inputSchema: { type: 'object', properties: { channel_id: { type: 'string' }, text: { type: 'string' } } },
      }),
    );
    expect(text).toBe('slack, slack post message: Post a new message to a Slack channel, channel id, text');
  });

  it('adds the title, and the server description when it says more than the id', () => {
    expect(toolEmbeddingText(tool({ title: 'Post message', serverDescription: 'Team chat of ACME' }))).toBe(
      'slack (Team chat of ACME), slack post message: Post message.',
    );
    expect(toolEmbeddingText(tool({ serverDescription: 'Slack' }))).toBe('slack, slack post message:');
  });

  it('translates a Chinese or Japanese description when given a translator', () => {
    const text = toolEmbeddingText(tool({ description: '使用必应搜索' }), () => 'search web');
    expect(text).toBe('slack, slack post message: search web');
    expect(toolEmbeddingText(tool({ description: '使用必应搜索' }))).toContain('使用必应搜索');
  });

  it('cuts very long descriptions and survives malformed tools', () => {
    expect(toolEmbeddingText(tool({ description: 'x'.repeat(1_000_000) })).length).toBeLessThan(1_000);
    expect(toolEmbeddingText(null as unknown as ToolInfo)).toBe('');
    const odd = { toolKey: 1, toolName: null, serverName: {}, description: 42, inputSchema: 'no' };
    expect(toolEmbeddingText(odd as unknown as ToolInfo)).toBe('');
    expect(toolEmbeddingText({ ...odd, toolName: 'echo' } as unknown as ToolInfo)).toBe(', echo:');
  });
});

describe('identifierWords', () => {
  it('splits snake, kebab, camel and Pascal case', () => {
    expect(identifierWords('read_text_file')).toBe('read text file');
    expect(identifierWords('getUserProfile')).toBe('get User Profile');
    expect(identifierWords('HTMLParser')).toBe('HTML Parser');
    expect(identifierWords('google-maps.v2/geo')).toBe('google maps v2 geo');
  });
});
