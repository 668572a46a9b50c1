/**
 * The two tools a model sees in meta mode. Their names, descriptions and schemas are all it knows before it
 * searches, and they are loaded into every conversation: they say when to search, that several phrasings help, and
 * that `toolKey` is passed exactly — in as few tokens as that takes.
 */
export const TOOL_DISCOVERY = 'tool_discovery';
export const TOOL_EXECUTE = 'tool_execute';

export type DiscoveryDetail = 'minimal' | 'summary' | 'full';

export const toolDiscoveryDefinition = {
  name: TOOL_DISCOVERY,
  title: 'Find tools',
  description:
    'Search the tools of all connected MCP servers. Use it whenever a task needs a capability you do not have ' +
    'as a tool. Give several short phrasings or sub-steps in `query` (any language). Returns toolKeys with their ' +
    'input schemas; run one with tool_execute.',
  inputSchema: {
    type: 'object',
    properties: {
      query: {
        anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
        description: 'What you want to do, e.g. ["read a file", "show file contents"].',
      },
      context: { type: 'string', description: 'The overall task, to rank better.' },
      maxResults: { type: 'integer', minimum: 1, maximum: 50, description: 'Default 10.' },
      detail: {
        type: 'string',
        enum: ['minimal', 'summary', 'full'],
        description: 'minimal: names only; summary (default): + input schema; full: + output schema and annotations.',
      },
    },
    required: ['query'],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const;

export const toolExecuteDefinition = {
  name: TOOL_EXECUTE,
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
} as const;
