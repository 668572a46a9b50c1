import { context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { McpCallToolResult } from '@search-mcp/shared';
import { packageVersion } from '../package-version.js';

/**
 * OpenTelemetry for backend calls, through `@opentelemetry/api` only: the application decides whether an SDK records
 * anything (`search-mcp-http` starts one when an OTLP endpoint is configured: docs/console.md, "Telemetry"). With no
 * SDK registered the tracer, spans and propagator are the API's no-ops: nothing is recorded or injected.
 *
 * Names follow the OpenTelemetry semantic conventions for MCP (client spans: `{mcp.method.name} {gen_ai.tool.name}`,
 * kind CLIENT, `mcp.method.name`, `gen_ai.tool.name`, `gen_ai.operation.name`, `error.type`); the backend server's
 * id has no convention and is `search_mcp.server.id`.
 */
const tracer = trace.getTracer('@search-mcp/client-manager', packageVersion);

/** Runs one backend `tools/call` inside a CLIENT span; the span ends when the call settles. */
export function withBackendCallSpan(
  serverId: string,
  toolName: string,
  call: () => Promise<McpCallToolResult>,
): Promise<McpCallToolResult> {
  return tracer.startActiveSpan(
    `tools/call ${toolName}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'mcp.method.name': 'tools/call',
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': toolName,
        'search_mcp.server.id': serverId,
      },
    },
    (span) => {
      // A span nobody records (no SDK) costs nothing more than the call itself.
      if (!span.isRecording()) return call();
      return call().then(
        (result) => {
          // A tool that ran and failed answers a result with `isError` (the conventions' `tool_error`).
          if (result.isError === true) {
            span.setAttribute('error.type', 'tool_error');
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          span.end();
          return result;
        },
        (error: unknown) => {
          endWithError(span, error);
          throw error;
        },
      );
    },
  );
}

function endWithError(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | undefined)?.code;
  span.setAttribute('error.type', typeof code === 'string' || typeof code === 'number' ? String(code) : 'error');
  // The type only, never the message: a backend's error text may carry a secret, and spans leave the process.
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * The W3C trace context of the current span (`traceparent`, `tracestate`) as `_meta` keys, as the MCP conventions
 * carry it ("Context propagation": in `params._meta`); undefined when there is none to send (no SDK, no propagator).
 */
export function traceContextMeta(): Record<string, string> | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  for (const _key in carrier) return carrier;
  return undefined;
}

/**
 * The call's `_meta` with our trace context: the client's own `traceparent` and `tracestate` go first, so a
 * `tracestate` of theirs never pairs with our `traceparent` (W3C Trace Context: the two travel together). Without
 * a trace context of ours (no SDK), the client's `_meta` passes as it is.
 */
export function withTraceContextMeta(meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const traceMeta = traceContextMeta();
  if (!traceMeta) return meta;
  const { traceparent: _traceparent, tracestate: _tracestate, ...rest } = meta ?? {};
  return { ...rest, ...traceMeta };
}
