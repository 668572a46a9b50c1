import { BackendAuthorizationError, isRecord, type McpFetchLike } from '@search-mcp/shared';
import {
  classifyProbeAnswer,
  type EraProbeOutcome,
  type EraProbeSettings,
  isProbeAnswer,
  modernRevision,
  probeRequest,
} from './era-probe.js';

export interface HttpEraProbeSettings extends EraProbeSettings {
  /** The config entry's headers (authorization…). */
  headers: Record<string, string>;
  fetch?: McpFetchLike;
}

/**
 * The era probe over Streamable HTTP: one POST of `server/discover` with the 2026-07-28 headers (`MCP-Protocol-Version`,
 * `Mcp-Method`). A 2026 server answers its discover result (JSON, or an SSE stream whose first response is it), or
 * refuses it with 400 and `-32022` listing 2026-07-28 (modern too); a 2025 server answers 400/404/405 or another
 * JSON-RPC error, all meaning legacy. No answer in `timeoutMs` and network failures
 * mean legacy too: the 2025 connect that follows reports the real problem in its own words. Never opens a session.
 */
export async function probeOverHttp(url: URL, settings: HttpEraProbeSettings): Promise<EraProbeOutcome> {
  const { signal } = settings;
  signal?.throwIfAborted();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const fetchImplementation = settings.fetch ?? fetch;
  try {
    const response = await fetchImplementation(url, {
      method: 'POST',
      headers: {
        ...settings.headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': modernRevision,
        'mcp-method': 'server/discover',
      },
      body: JSON.stringify(probeRequest(settings)),
      signal: controller.signal,
    });
    const answer = response.ok ? await readAnswer(response) : await readRefusal(response);
    if (answer) {
      const outcome = classifyProbeAnswer(answer);
      if (outcome.era === 'modern' || response.ok) return outcome;
    }
    await response.body?.cancel().catch(() => {});
    return { era: 'legacy', reason: 'answered', ...(response.ok ? {} : { httpStatus: response.status }) };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    // OAuth could not get a token: no era to learn, and the 2025 connect would only ask again.
    if (BackendAuthorizationError.isInstance(error)) throw error;
    return { era: 'legacy', reason: controller.signal.aborted ? 'silent' : 'unreachable' };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The most of a 400 body read for a refusal. A `-32022` refusal is a few hundred bytes (code, message, the supported
 * revisions); a longer body is some other server's error page, and a body that never ends would hold the probe until
 * its wait ran out.
 */
export const maxRefusalBytes = 64 * 1024;

/**
 * The JSON-RPC error of a refused probe (a 400 with a JSON body), or undefined. A 2026-07-28 server refuses a request
 * it cannot take in the revision claimed with `-32022` listing the revisions it speaks; a 2025 server's 400 answer is
 * some other error, or no JSON at all. A body past `maxRefusalBytes` is not read further and is no refusal: the probe
 * reads that 400 as a 2025 server's, as any other.
 */
async function readRefusal(response: Response): Promise<Record<string, unknown> | undefined> {
  if (response.status !== 400 || !(response.headers.get('content-type') ?? '').includes('json')) return undefined;
  const text = await readCapped(response, maxRefusalBytes);
  if (text === undefined) return undefined;
  try {
    const body: unknown = JSON.parse(text);
    return isRecord(body) && isRecord(body.error) ? body : undefined;
  } catch {
    return undefined;
  }
}

/** The body as UTF-8 text, or undefined once it runs past `limit` bytes (the rest is left unread, the body cancelled). */
async function readCapped(response: Response, limit: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return Buffer.concat(chunks).toString('utf8');
      size += value.byteLength;
      if (size > limit) return undefined;
      chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** The JSON-RPC answer to the probe in a 2xx response (JSON body or SSE stream), or undefined. */
async function readAnswer(response: Response): Promise<Record<string, unknown> | undefined> {
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) return readEventStream(response);
  if (!type.includes('json')) return undefined;
  const body: unknown = await response.json().catch(() => undefined);
  return isProbeAnswer(body) ? body : undefined;
}

/** Reads SSE events until one carries the answer to the probe; the stream is cancelled then. */
async function readEventStream(response: Response): Promise<Record<string, unknown> | undefined> {
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (!reader) return undefined;
  let buffered = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return undefined;
      buffered += value;
      let end = buffered.search(/\r?\n\r?\n/);
      while (end !== -1) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end).replace(/^\r?\n\r?\n/, '');
        const answer = answerIn(event);
        if (answer) return answer;
        end = buffered.search(/\r?\n\r?\n/);
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** The probe's answer in one SSE event's `data:` lines, or undefined. */
function answerIn(event: string): Record<string, unknown> | undefined {
  const data = event
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''))
    .join('\n');
  if (data === '') return undefined;
  try {
    const message: unknown = JSON.parse(data);
    return isProbeAnswer(message) ? message : undefined;
  } catch {
    return undefined;
  }
}
