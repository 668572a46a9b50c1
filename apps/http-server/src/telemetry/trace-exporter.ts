import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { errorMessage, type Logger } from '@search-mcp/shared';
import { packageVersion } from '../version.js';

/** A running trace export: `shutdown` sends the spans still batched, then stops. */
export interface TraceExport {
  shutdown(): Promise<void>;
}

/** Whether the environment asks for trace export (the OpenTelemetry SDK's own variables). */
export function wantsTraceExport(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (env.OTEL_TRACES_EXPORTER?.split(',').some((name) => name.trim() === 'none')) return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/**
 * `search-mcp-http` exports the spans the libraries make (through `@opentelemetry/api`: docs/console.md, "Telemetry")
 * over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set and
 * `OTEL_TRACES_EXPORTER` is not `none`. The exporter reads the rest of the standard variables itself (headers,
 * timeout, …); the service is `search-mcp-http` unless `OTEL_SERVICE_NAME` (or `OTEL_RESOURCE_ATTRIBUTES`) names
 * another. It registers the provider globally, with the W3C trace-context propagator and an AsyncLocalStorage context
 * manager, so a request's spans nest and `traceparent` goes into each backend call's `_meta`.
 */
export function startTraceExport(env: NodeJS.ProcessEnv, logger: Logger): TraceExport | undefined {
  if (!wantsTraceExport(env)) return undefined;
  const resource = resourceFromAttributes({ 'service.name': 'search-mcp-http', 'service.version': packageVersion })
    // The environment's attributes win (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`).
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  logger.info('exporting OpenTelemetry traces over OTLP/HTTP', {
    endpoint: originOf(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT || ''),
    service: resource.attributes['service.name'],
  });
  let stopping: Promise<void> | undefined;
  return {
    shutdown: () => {
      stopping ??= provider.shutdown().then(
        () => {
          // Unregistered, so a later start in the same process (tests, `search-mcp ui`) can register its own.
          trace.disable();
          propagation.disable();
          context.disable();
        },
        (error: unknown) =>
          logger.warn('the last OpenTelemetry spans could not be sent', { error: errorMessage(error) }),
      );
      return stopping;
    },
  };
}

/** Where spans go, for the log: the origin only (an endpoint's user info or query may hold a credential). */
function originOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return '(not a URL)';
  }
}
