/**
 * What the LLM ranker sends: the queries, the context and the candidate tools as compact text, and a strict JSON
 * schema for the answer whose `toolKey` is an enum of the candidates' keys (with structured outputs the model
 * cannot name another tool; the answer is checked all the same). Compact text because the prompt is what a user
 * pays per search (bench/web-search-bench.ts measures it).
 */
import { truncateText, type ToolInfo } from '@search-mcp/shared';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';

const maxDescriptionLength = 300;
const maxContextLength = 1_500;
const maxQueryLength = 500;
const maxParameters = 8;

export const llmRankingInstructions = [
  "You choose tools for an AI assistant. You get the assistant's search queries (phrasings or steps of one task),",
  'maybe some context, and candidate tools found by a keyword search.',
  'Pick the tools that can do what the queries ask, best first, and leave out the rest. For a task of several steps,',
  'pick a tool for each step. Use only toolKey values from the list.',
  'relevance: 1 = does exactly what is asked; 0.7 = does it partly or with extra steps; below 0.4 = leave it out.',
  'explanation: one short line on what the tool does for the request.',
].join('\n');

export interface LlmRankingRequest {
  queries: readonly string[];
  context?: string;
  candidates: readonly ToolInfo[];
  maxResults: number;
}

export function llmRankingMessages(request: LlmRankingRequest): ChatCompletionCreateParamsNonStreaming['messages'] {
  const lines = ['Queries:', ...request.queries.map((query) => `- ${truncateText(query, maxQueryLength)}`)];
  const context = request.context ? truncateText(request.context, maxContextLength) : '';
  if (context) lines.push(`Context: ${context}`);
  lines.push(`Pick at most ${request.maxResults} tools.`, '', 'Tools (toolKey: description [parameters]):');
  for (const tool of request.candidates) lines.push(toolLine(tool));
  return [
    { role: 'system', content: llmRankingInstructions },
    { role: 'user', content: lines.join('\n') },
  ];
}

export function llmRankingResponseFormat(
  candidates: readonly ToolInfo[],
): NonNullable<ChatCompletionCreateParamsNonStreaming['response_format']> {
  return {
    type: 'json_schema',
    json_schema: {
      name: 'tool_ranking',
      strict: true,
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['tools'],
        properties: {
          tools: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['toolKey', 'relevance', 'explanation'],
              properties: {
                toolKey: { type: 'string', enum: candidates.map((tool) => tool.toolKey) },
                relevance: { type: 'number' },
                explanation: { type: 'string' },
              },
            },
          },
        },
      },
    },
  };
}

function toolLine(tool: ToolInfo): string {
  const description = truncateText(tool.description || tool.title || '', maxDescriptionLength);
  const properties = tool.inputSchema?.properties;
  const parameters = properties && typeof properties === 'object' ? Object.keys(properties) : [];
  const shown = parameters.slice(0, maxParameters).join(', ');
  const more = parameters.length > maxParameters ? ', …' : '';
  return `${tool.toolKey}: ${description || '(no description)'}${shown ? ` [${shown}${more}]` : ''}`;
}
