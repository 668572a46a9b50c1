import {
  type Attributes,
  type Context,
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
} from '@opentelemetry/api';
import type { ToolCallResult } from '@search-mcp/shared';
import { packageVersion } from '../package-version.js';
import type { RequestExtra } from '../request-extra-types.js';

/**
 * OpenTelemetry spans of the requests Search MCP serves (`tool_discovery`, `tool_execute`, a direct `tools/call`),
 * through `@opentelemetry/api` only: without an SDK registered every span is the API's no-op (docs/console.md,
 * "Telemetry"). Names and attributes follow the OpenTelemetry semantic conventions for MCP server spans:
 * `{mcp.method.name} {gen_ai.tool.name}`, kind SERVER, `mcp.method.name`, `gen_ai.tool.name`,
 * `gen_ai.operation.name`, `mcp.session.id`, `jsonrpc.request.id`, `error.type`; what Search MCP adds is under
 * `search_mcp.*` (the tool key a `tool_execute` runs, a discovery's result count).
 */
const tracer = trace.getTracer('@search-mcp/server', packageVersion);

const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/**
 * The parent of a request's span: the client's own trace context in `params._meta` (`traceparent`, as the MCP
 * conventions carry it), else the active context (the HTTP request's `traceparent` header, set by the HTTP app).
 */
function parentOf(meta: Record<string, unknown> | undefined): Context {
  const active = context.active();
  return meta && typeof meta.traceparent === 'string' ? propagation.extract(active, meta, metaGetter) : active;
}

/**
 * Runs a handler inside a SERVER span named after the tool the client called (`tools/call tool_discovery`); the
 * span ends when the handler settles. An `isError` result marks it `tool_error`.
 */
export function withRequestSpan(
  toolName: string,
  attributes: Attributes,
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
  handle: () => Promise<ToolCallResult>,
): Promise<ToolCallResult> {
  const parent = parentOf(meta);
  const span = tracer.startSpan(
    `tools/call ${toolName}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'mcp.method.name': 'tools/call',
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': toolName,
        'jsonrpc.request.id': String(extra.requestId),
        ...(extra.sessionId !== undefined ? { 'mcp.session.id': extra.sessionId } : {}),
        ...attributes,
      },
    },
    parent,
  );
  // Inside the span's context even when nobody records it (no SDK, or a sampler that drops it): its context still
  // carries the parent's trace (the client's unsampled traceparent), which the backend calls must carry on rather
  // than start a trace of their own.
  const running = context.with(trace.setSpan(parent, span), handle);
  if (!span.isRecording()) return running;
  return running.then(
    (result) => {
      if (result.isError === true) {
        span.setAttribute('error.type', 'tool_error');
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
      return result;
    },
    (error: unknown) => {
      const code = (error as { code?: unknown } | undefined)?.code;
      span.setAttribute('error.type', typeof code === 'string' || typeof code === 'number' ? String(code) : 'error');
      // The type only, never the message: a backend's error text may carry a secret, and spans leave the process.
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw error;
    },
  );
}
