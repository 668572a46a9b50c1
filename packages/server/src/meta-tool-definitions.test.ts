import { describe, expect, it } from 'vitest';
import { toolDiscoveryArguments } from './meta-tool-arguments.js';
import { toolDiscoveryDefinition, toolExecuteDefinition } from './meta-tool-definitions.js';

describe('meta-tool definitions generated from their zod schemas', () => {
  it('lists tool_discovery with exactly this schema: it teaches the model to ask in tool words', () => {
    expect(toolDiscoveryDefinition()).toEqual({
      name: 'tool_discovery',
      title: 'Find tools',
      description:
        'Search the tools of all connected MCP servers. Use it whenever a task needs a capability you do not have ' +
        "as a tool. In `query`, give 2-4 short phrasings of the action in tool words, plus the user's words. " +
        'Returns toolKeys with their input schemas; run one with tool_execute.',
      inputSchema: {
        type: 'object',
        properties: {
          query: {
            anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
            description:
              "Phrasings of the action (verb + object), then the user's own words; any language. " +
              'E.g. ["post message slack channel", "send chat message", "tell #deploys the build is done"]. ' +
              'Several steps: phrasings for each.',
          },
          context: { type: 'string', description: 'The overall task, to rank better.' },
          maxResults: { type: 'integer', minimum: 1, maximum: 50, description: 'Default 10.' },
          detail: {
            type: 'string',
            enum: ['minimal', 'summary', 'full'],
            description:
              'minimal: names only; summary (default): + input schema; full: + output schema and annotations.',
          },
        },
        required: ['query'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
  });

  it('lists tool_execute with exactly the schema clients have always been sent', () => {
    expect(toolExecuteDefinition()).toEqual({
      name: 'tool_execute',
      title: 'Run a tool',
      description:
        'Run a tool found with tool_discovery. Pass its toolKey exactly as returned and arguments that match its ' +
        'input schema.',
      inputSchema: {
        type: 'object',
        properties: {
          toolKey: { type: 'string', description: 'e.g. "filesystem:read_text_file"' },
          arguments: { type: 'object', description: "The tool's arguments. Default {}." },
        },
        required: ['toolKey'],
      },
    });
  });

  it('states the configured default number of results', () => {
    const schema = toolDiscoveryDefinition(7).inputSchema as unknown as {
      properties: { maxResults: { description: string } };
    };
    expect(schema.properties.maxResults.description).toBe('Default 7.');
  });

  it('validates with the same limits it advertises', () => {
    expect(toolDiscoveryArguments.safeParse({ query: 'x', maxResults: 50 }).success).toBe(true);
    expect(toolDiscoveryArguments.safeParse({ query: 'x', maxResults: 51 }).success).toBe(false);
    expect(toolDiscoveryArguments.safeParse({ query: 'x', maxResults: 1.5 }).success).toBe(false);
    expect(toolDiscoveryArguments.safeParse({ query: ['a', 'b'], detail: 'full' }).success).toBe(true);
    expect(toolDiscoveryArguments.safeParse({ query: 'x', detail: 'everything' }).success).toBe(false);
  });
});
