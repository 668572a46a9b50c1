/**
 * An OpenAI-compatible HTTP server of ours on 127.0.0.1, for tests and benchmarks (there is no internet here). It
 * speaks the subset of the API that `@search-mcp/openai` uses, with bodies shaped like OpenAI's documented ones:
 *
 * - `POST /v1/responses` (background or not), `GET /v1/responses/{id}`, `POST /v1/responses/{id}/cancel`: response
 *   objects that go `queued → in_progress → completed | failed | incomplete | cancelled`, one step per poll, with a
 *   `web_search_call` item and a message whose `output_text` carries `url_citation` annotations
 *   (`start_index`/`end_index`/`title`/`url`, the indices covering the `([host](url))` citation in the text);
 * - `POST /v1/chat/completions` with `response_format: json_schema`: a `chat.completion` whose message content is
 *   what the test's handler returns;
 * - faults on demand: any status with OpenAI's error body (`{ error: { message, type, param, code } }`) and headers
 *   (`retry-after`), slow answers, malformed JSON, hang-ups, and a 401 for a wrong key.
 *
 * Node built-ins only, so that a benchmark can load it without loading anything else. Every request is recorded;
 * tests await `waitFor(...)` instead of sleeping.
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  isTerminal,
  notFound,
  openAiErrorBody,
  responseObject,
  statusOf,
  statusTexts,
  type StoredResponse,
  type WebSearchScenario,
} from './fake-openai-bodies.js';

export {
  citedOutput,
  defaultCitations,
  openAiErrorBody,
  type FakeCitation,
  type FakeOutputText,
  type FakeStatus,
  type WebSearchScenario,
} from './fake-openai-bodies.js';

export type FakeRoute = 'create-response' | 'retrieve-response' | 'cancel-response' | 'chat-completion' | 'unknown';

export interface RecordedRequest {
  route: FakeRoute;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined for GET or a body that is not JSON). */
  body: unknown;
  /** `performance.now()` when the request arrived. */
  at: number;
  /** The SDK's `x-stainless-retry-count`: 0 for a first attempt. */
  retryCount: number;
  /** For response routes: the response id in the path. */
  responseId?: string;
  /** Settles when the exchange ends: `answered`, or `aborted` when the client closed the connection first. */
  ended: Promise<'answered' | 'aborted'>;
}

/** A planned answer that replaces the normal one for the next request of a route. */
export interface FakeFault {
  status?: number;
  headers?: Record<string, string>;
  /** JSON body; default OpenAI's error body for `status`. */
  body?: unknown;
  /** Sent as it is (malformed JSON, an HTML page). */
  rawBody?: string;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Destroy the connection without an answer (a network error). */
  hangUp?: boolean;
}

/** What the chat handler returns: the message content, or a refusal, or a fault. */
export type FakeChatAnswer = { content: string; finishReason?: 'stop' | 'length' } | { refusal: string } | FakeFault;

export interface FakeOpenAiServerOptions {
  /** The key requests must carry (`Authorization: Bearer …`); any key when absent. */
  apiKey?: string;
  /** How each web search goes (a function gets the request body). */
  webSearch?: WebSearchScenario | ((body: Record<string, unknown>) => WebSearchScenario);
  /** How each chat completion answers. Default: `{ "tools": [] }`. */
  chat?: (body: Record<string, unknown>) => FakeChatAnswer;
  /** Delay of every answer, in ms. Default 0. */
  latencyMs?: number;
}

export interface FakeOpenAiServer {
  /** The base URL to give the client: `http://127.0.0.1:<port>/v1`. */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Ids of the responses created, in order. */
  readonly createdIds: string[];
  /** Ids of the responses cancelled through `POST /responses/{id}/cancel`. */
  readonly cancelledIds: string[];
  options: FakeOpenAiServerOptions;
  /** The next requests of `route` get these answers, one each, in order. */
  failNext(route: FakeRoute, ...faults: FakeFault[]): void;
  /** Resolves with the first recorded request (past or future) that matches. */
  waitFor(predicate: (request: RecordedRequest) => boolean): Promise<RecordedRequest>;
  /** Requests of one route. */
  requestsOf(route: FakeRoute): RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeOpenAiServer(options: FakeOpenAiServerOptions = {}): Promise<FakeOpenAiServer> {
  const requests: RecordedRequest[] = [];
  const createdIds: string[] = [];
  const cancelledIds: string[] = [];
  const faults = new Map<FakeRoute, FakeFault[]>();
  const responses = new Map<string, StoredResponse>();
  const events = new EventEmitter();
  events.setMaxListeners(0);
  let nextId = 1;
  const state = { options };

  const server = createServer((request, reply) => {
    void handle(request, reply).catch((error: unknown) => {
      if (!reply.headersSent) send(reply, 500, { error: { message: String(error), type: 'server_error' } });
    });
  });

  async function handle(request: IncomingMessage, reply: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const { route, responseId } = routeOf(request.method ?? 'GET', path);
    const ended = new Promise<'answered' | 'aborted'>((resolve) => {
      reply.once('close', () => resolve(reply.writableFinished ? 'answered' : 'aborted'));
    });
    const recorded: RecordedRequest = {
      route,
      method: request.method ?? 'GET',
      path,
      headers: request.headers,
      body,
      at: performance.now(),
      retryCount: Number(request.headers['x-stainless-retry-count'] ?? 0),
      ...(responseId ? { responseId } : {}),
      ended,
    };
    requests.push(recorded);
    events.emit('request', recorded);

    const latency = state.options.latencyMs ?? 0;
    if (latency > 0) await wait(latency);

    const fault = faults.get(route)?.shift();
    if (fault) return answerFault(reply, fault, body);

    const expectedKey = state.options.apiKey;
    if (expectedKey !== undefined && request.headers.authorization !== `Bearer ${expectedKey}`) {
      // Hostile on purpose: OpenAI masks the key it quotes; this server repeats it whole, so tests can prove that
      // nothing of ours passes it on.
      const given = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
      return send(reply, 401, {
        error: {
          message: `Incorrect API key provided: ${given}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
    }

    switch (route) {
      case 'create-response':
        return createResponse(reply, (body ?? {}) as Record<string, unknown>);
      case 'retrieve-response':
        return retrieveResponse(reply, responseId ?? '');
      case 'cancel-response':
        return cancelResponse(reply, responseId ?? '');
      case 'chat-completion':
        return chatCompletion(reply, (body ?? {}) as Record<string, unknown>);
      default:
        return send(reply, 404, {
          error: {
            message: `Invalid URL (${recorded.method} ${path})`,
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        });
    }
  }

  async function answerFault(reply: ServerResponse, fault: FakeFault, body: unknown): Promise<void> {
    if (fault.delayMs) await wait(fault.delayMs);
    if (reply.destroyed) return;
    if (fault.hangUp) {
      reply.socket?.destroy();
      return;
    }
    const status = fault.status ?? 500;
    if (fault.rawBody !== undefined) {
      reply.writeHead(status, { 'content-type': 'application/json', ...fault.headers });
      reply.end(fault.rawBody);
      return;
    }
    const model = typeof (body as { model?: unknown })?.model === 'string' ? (body as { model: string }).model : 'o3';
    send(reply, status, fault.body ?? openAiErrorBody(status, model), fault.headers);
  }

  function scenarioFor(body: Record<string, unknown>): WebSearchScenario {
    const configured = state.options.webSearch;
    return (typeof configured === 'function' ? configured(body) : configured) ?? {};
  }

  function createResponse(reply: ServerResponse, body: Record<string, unknown>): void {
    if (typeof body.model !== 'string' || body.input === undefined) {
      send(reply, 400, {
        error: {
          message: "Missing required parameter: 'model'.",
          type: 'invalid_request_error',
          param: 'model',
          code: 'missing_required_parameter',
        },
      });
      return;
    }
    const scenario = scenarioFor(body);
    const background = body.background === true;
    const stored: StoredResponse = {
      id: `resp_${(nextId++).toString(16).padStart(8, '0')}${'0'.repeat(40)}`,
      body,
      scenario,
      // Not in the background, the answer is the finished response.
      statuses: scenario.statuses ?? (background ? ['queued', 'in_progress', 'completed'] : ['completed']),
      step: 0,
      cancelled: false,
      createdAt: Math.floor(Date.now() / 1000),
    };
    createdIds.push(stored.id);
    if (background) responses.set(stored.id, stored);
    else stored.step = stored.statuses.length - 1;
    send(reply, 200, responseObject(stored));
  }

  function retrieveResponse(reply: ServerResponse, id: string): void {
    const stored = responses.get(id);
    if (!stored) {
      send(reply, 404, notFound(id));
      return;
    }
    if (!stored.cancelled) stored.step = Math.min(stored.step + 1, stored.statuses.length - 1);
    send(reply, 200, responseObject(stored));
  }

  function cancelResponse(reply: ServerResponse, id: string): void {
    const stored = responses.get(id);
    if (!stored) {
      send(reply, 404, notFound(id));
      return;
    }
    if (!isTerminal(statusOf(stored))) stored.cancelled = true;
    cancelledIds.push(id);
    events.emit('cancel', id);
    send(reply, 200, responseObject(stored));
  }

  function chatCompletion(reply: ServerResponse, body: Record<string, unknown>): void {
    const answer = state.options.chat?.(body) ?? { content: '{"tools":[]}' };
    if (!('content' in answer) && !('refusal' in answer)) {
      void answerFault(reply, answer, body);
      return;
    }
    const content = 'content' in answer ? answer.content : null;
    const refusal = 'refusal' in answer ? answer.refusal : null;
    send(reply, 200, {
      id: `chatcmpl-${(nextId++).toString(36)}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: `${String(body.model)}-2025-04-14`,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal, annotations: [] },
          logprobs: null,
          finish_reason: 'content' in answer ? (answer.finishReason ?? 'stop') : 'stop',
        },
      ],
      usage: {
        prompt_tokens: Math.ceil(JSON.stringify(body.messages ?? '').length / 4),
        completion_tokens: Math.ceil((content ?? refusal ?? '').length / 4),
        total_tokens: 0,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
      service_tier: 'default',
      system_fingerprint: 'fp_fake',
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    createdIds,
    cancelledIds,
    get options() {
      return state.options;
    },
    set options(value: FakeOpenAiServerOptions) {
      state.options = value;
    },
    failNext(route, ...planned) {
      faults.set(route, [...(faults.get(route) ?? []), ...planned]);
    },
    waitFor(predicate) {
      const seen = requests.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => {
        const listener = (request: RecordedRequest) => {
          if (!predicate(request)) return;
          events.off('request', listener);
          resolve(request);
        };
        events.on('request', listener);
      });
    },
    requestsOf(route) {
      return requests.filter((request) => request.route === route);
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function routeOf(method: string, path: string): { route: FakeRoute; responseId?: string } {
  if (method === 'POST' && path === '/v1/responses') return { route: 'create-response' };
  if (method === 'POST' && path === '/v1/chat/completions') return { route: 'chat-completion' };
  const cancel = /^\/v1\/responses\/([^/]+)\/cancel$/.exec(path);
  if (method === 'POST' && cancel?.[1]) return { route: 'cancel-response', responseId: cancel[1] };
  const retrieve = /^\/v1\/responses\/([^/]+)$/.exec(path);
  if (method === 'GET' && retrieve?.[1]) return { route: 'retrieve-response', responseId: retrieve[1] };
  return { route: 'unknown' };
}

function send(reply: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  reply.writeHead(status, statusTexts[status] ?? '', {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': `req_${Math.random().toString(16).slice(2, 18)}`,
    ...headers,
  });
  reply.end(text);
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
