import { parseToolKey } from '@search-mcp/shared';
import { errorBody, schemaValidationError, toHttpError } from '../http-errors.js';
import { documentedResponses } from '../openapi/documented-responses.js';
import { callerOf } from '../request-context.js';
import type { RestRouteContext, ZodFastifyInstance } from './rest-route-context.js';
import { projectHeaderSchema, toolCallBodySchema, toolCallResponseSchema } from './rest-schemas.js';

/**
 * `POST /v1/tools/call { name, parameters }`: runs a tool through the catalog. Every answer, failures too, carries
 * `executionTime` and `timestamp` (apps/http-server/README.md, routes table). A client that disconnects cancels the
 * backend call; a call still running when the app shuts down is answered 503.
 */
export function registerToolCallRoute(app: ZodFastifyInstance, { catalog, inFlight, audit }: RestRouteContext): void {
  app.post(
    '/v1/tools/call',
    {
      // Validation failures are answered here, with timing, like every other failure of this route.
      attachValidation: true,
      schema: {
        summary: 'Run a tool',
        headers: projectHeaderSchema,
        body: toolCallBodySchema,
        response: documentedResponses(toolCallResponseSchema, [200, 400, 401, 403, 404, 408, 413, 429, 500, 502, 503]),
      },
    },
    async (request, reply) => {
      const started = performance.now();
      const timing = () => ({
        executionTime: Math.round(performance.now() - started),
        timestamp: new Date().toISOString(),
      });
      const call = inFlight.begin(reply);
      try {
        const invalid = request.validationError ? schemaValidationError(request.validationError) : undefined;
        if (invalid) throw invalid;
        const body = request.body;
        const serverId = parseToolKey(body.name)?.serverId;
        request.auditFields = { toolKey: body.name, ...(serverId ? { serverId } : {}) };
        const result = await catalog.execute(body.name, body.parameters, callerOf(request), { signal: call.signal });
        request.auditFields.outcome = result.isError ? 'tool_error' : 'ok';
        const firstText = result.content?.find(
          (part): part is { type: 'text'; text: string } => (part as { type?: unknown }).type === 'text',
        )?.text;
        return {
          success: !result.isError,
          result,
          ...(result.isError ? { error: firstText ?? 'The tool reported an error', code: 'TOOL_ERROR' } : {}),
          ...timing(),
        };
      } catch (error) {
        if (call.stopReason !== undefined) {
          request.auditFields = { ...request.auditFields, outcome: 'cancelled', errorCode: 'CANCELLED' };
          if (call.stopReason === 'shutting-down') {
            return reply
              .code(503)
              .header('retry-after', '5')
              .send({
                ...errorBody('Search MCP is shutting down; the call was cancelled', 'SHUTTING_DOWN'),
                ...timing(),
              });
          }
          // The client is gone: nobody reads an answer, so none is sent; the audit line is written here instead.
          reply.hijack();
          audit.record(request, 499);
          return;
        }
        const { status, body, headers } = toHttpError(error);
        request.auditFields = { ...request.auditFields, errorCode: body.code };
        // A rate limit's `Retry-After` (docs/trust.md, "Rate limits").
        if (headers) reply.headers(headers);
        return reply.code(status).send({ ...body, ...timing() });
      } finally {
        call.end();
      }
    },
  );
}
