/**
 * The bodies of the fake OpenAI server (`fake-openai-server.ts`), shaped like OpenAI's documented ones: error
 * bodies, response objects with `web_search_call` and `url_citation`-annotated messages, and the scenario types
 * that say how a fake web search goes.
 */

export interface FakeCitation {
  url: string;
  title: string;
  /** What the model wrote about the source. */
  text: string;
  /** Written as `(published YYYY-MM-DD)` before the citation. */
  publishedDate?: string;
}

export interface FakeOutputText {
  text: string;
  annotations: Array<{ type: 'url_citation'; start_index: number; end_index: number; title: string; url: string }>;
}

export type FakeStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'incomplete' | 'cancelled';

/** How one web search goes. */
export interface WebSearchScenario {
  /**
   * The statuses of the response: the creation answers the first, each poll the next. It stays at the last one, so
   * a list ending in `in_progress` never finishes. Default `['queued', 'in_progress', 'completed']`.
   */
  statuses?: FakeStatus[];
  /** The sources the model cites (one line each), when the text is not given whole by `output`. */
  citations?: FakeCitation[];
  /** The message's parts as they are (for odd texts); default built from `citations`. */
  output?: FakeOutputText[];
  /** The message is a refusal instead. */
  refusal?: string;
  /** `error` of a `failed` response. */
  error?: { code: string; message: string };
  /** `incomplete_details.reason` of an `incomplete` response. */
  incompleteReason?: 'max_output_tokens' | 'content_filter';
  /** The model name the API reports. Default `<requested model>-2025-04-16`. */
  reportedModel?: string;
}

export const statusTexts: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** OpenAI's error body for a status (messages and codes as the API sends them). */
export function openAiErrorBody(status: number, model = 'o3'): { error: Record<string, unknown> } {
  switch (status) {
    case 400:
      return {
        error: {
          message: "Unsupported parameter: 'reasoning.effort' is not supported with this model.",
          type: 'invalid_request_error',
          param: 'reasoning.effort',
          code: 'unsupported_parameter',
        },
      };
    case 403:
      return {
        error: {
          message: `Your organization must be verified to use the model \`${model}\`. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization.`,
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      };
    case 404:
      return {
        error: {
          message: `The model \`${model}\` does not exist or you do not have access to it.`,
          type: 'invalid_request_error',
          param: null,
          code: 'model_not_found',
        },
      };
    case 429:
      return {
        error: {
          message: `Rate limit reached for ${model} in organization org-test on tokens per min (TPM): Limit 30000, Used 29950, Requested 800. Please try again in 1.5s.`,
          type: 'tokens',
          param: null,
          code: 'rate_limit_exceeded',
        },
      };
    default:
      return {
        error: {
          message: 'The server had an error while processing your request. Sorry about that!',
          type: 'server_error',
          param: null,
          code: null,
        },
      };
  }
}

/** The model's text for `citations` and its annotations, as OpenAI lays them out (`… ([host](url))`). */
export function citedOutput(citations: readonly FakeCitation[]): FakeOutputText {
  let text = '';
  const annotations: FakeOutputText['annotations'] = [];
  for (const citation of citations) {
    const url = `${citation.url}${citation.url.includes('?') ? '&' : '?'}utm_source=openai`;
    const host = new URL(citation.url).hostname.replace(/^www\./, '');
    text += `- ${citation.text}${citation.publishedDate ? ` (published ${citation.publishedDate})` : ''} `;
    const marker = `([${host}](${url}))`;
    annotations.push({
      type: 'url_citation',
      start_index: text.length,
      end_index: text.length + marker.length,
      title: citation.title,
      url,
    });
    text += `${marker}\n`;
  }
  return { text: text.trimEnd(), annotations };
}

export const defaultCitations: FakeCitation[] = [
  {
    url: 'https://nodejs.org/en/blog/release/v22.12.0',
    title: 'Node.js 22.12.0 (LTS)',
    text: 'Node.js 22.12.0 is the current LTS release and enables require(esm) by default.',
    publishedDate: '2024-12-03',
  },
  {
    url: 'https://github.com/nodejs/release',
    title: 'nodejs/release: Node.js release schedule',
    text: 'The release schedule lists the LTS and maintenance dates of every Node.js line.',
  },
];

/** A response the fake server holds: its request, its scenario and how far it has gone. */
export interface StoredResponse {
  id: string;
  body: Record<string, unknown>;
  scenario: WebSearchScenario;
  statuses: FakeStatus[];
  step: number;
  cancelled: boolean;
  createdAt: number;
}

export function statusOf(stored: StoredResponse): FakeStatus {
  if (stored.cancelled) return 'cancelled';
  return stored.statuses[Math.min(stored.step, stored.statuses.length - 1)] ?? 'completed';
}

export function isTerminal(status: FakeStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'incomplete' || status === 'cancelled';
}

export function notFound(id: string) {
  return {
    error: { message: `Response with id '${id}' not found.`, type: 'invalid_request_error', param: null, code: null },
  };
}

/** A response object as `GET /v1/responses/{id}` returns it. */
export function responseObject(stored: StoredResponse): Record<string, unknown> {
  const status = statusOf(stored);
  const { body, scenario } = stored;
  const model = String(body.model);
  const finished = status === 'completed' || status === 'incomplete';
  const output: unknown[] = [];
  if (finished || status === 'failed') {
    output.push({ id: `rs_${stored.id.slice(5, 13)}`, type: 'reasoning', summary: [] });
    output.push({
      id: `ws_${stored.id.slice(5, 13)}`,
      type: 'web_search_call',
      status: 'completed',
      action: { type: 'search', query: String(body.input).split('\n')[0] ?? '', sources: [] },
    });
  }
  if (finished) {
    const parts = scenario.refusal
      ? [{ type: 'refusal', refusal: scenario.refusal }]
      : (scenario.output ?? [citedOutput(scenario.citations ?? defaultCitations)]).map((part) => ({
          type: 'output_text',
          text: part.text,
          annotations: part.annotations,
          logprobs: [],
        }));
    output.push({
      id: `msg_${stored.id.slice(5, 13)}`,
      type: 'message',
      status: status === 'completed' ? 'completed' : 'incomplete',
      role: 'assistant',
      content: parts,
    });
  }
  return {
    id: stored.id,
    object: 'response',
    created_at: stored.createdAt,
    status,
    background: body.background === true,
    completed_at: status === 'completed' ? Math.floor(Date.now() / 1000) : null,
    error: status === 'failed' ? (scenario.error ?? { code: 'server_error', message: 'The model failed.' }) : null,
    incomplete_details: status === 'incomplete' ? { reason: scenario.incompleteReason ?? 'max_output_tokens' } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: null,
    max_tool_calls: null,
    model: scenario.reportedModel ?? `${model}-2025-04-16`,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: (body.reasoning as { effort?: string } | undefined)?.effort ?? 'medium', summary: null },
    service_tier: 'default',
    store: true,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: body.tools ?? [],
    top_p: 1,
    truncation: 'disabled',
    usage: finished
      ? {
          input_tokens: 1200,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 900,
          output_tokens_details: { reasoning_tokens: 640 },
          total_tokens: 2100,
        }
      : null,
    user: null,
    metadata: {},
  };
}
