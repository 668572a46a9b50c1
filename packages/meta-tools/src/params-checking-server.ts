import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type AnyObjectSchema,
  getLiteralValue,
  getObjectShape,
  type SchemaOutput,
  safeParse,
} from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ErrorCode,
  type Notification,
  type Request,
  type Result,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
} from '@modelcontextprotocol/sdk/types.js';
import { formatIssues, isRecord } from '@search-mcp/shared';
import { z } from 'zod';
import { JsonRpcWireError } from './wire-errors.js';

type Handler<T extends AnyObjectSchema> = (
  request: SchemaOutput<T>,
  extra: RequestHandlerExtra<ServerRequest | Request, ServerNotification | Notification>,
) => ServerResult | Result | Promise<ServerResult | Result>;

/** Changes the SDK's own `initialize` result before it goes out (instructions that need the backends). */
export type InitializeResultTransform = (
  result: Result,
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
) => Promise<Result>;

// Set per server after construction; the SDK registers its `initialize` handler inside the `Server` constructor,
// before subclass fields exist, so the hook lives outside the instance.
const initializeTransforms = new WeakMap<object, InitializeResultTransform>();

/**
 * The SDK's low-level `Server`, except that a request whose params do not fit its method's schema is answered with
 * `-32602 Invalid params` and one readable line. The SDK lets the schema's error escape, which goes out as `-32603`
 * with the whole zod error as its message (modelcontextprotocol/typescript-sdk#2284). Every handler, the SDK's own
 * (`initialize`, `ping`) included, is registered through here.
 *
 * It also skips the SDK `Server`'s re-parse of `tools/call` results, which strips unknown fields of content blocks
 * and rejects content types it does not know: backend results must pass unchanged.
 */
export class ParamsCheckingServer extends Server {
  override setRequestHandler<T extends AnyObjectSchema>(requestSchema: T, handler: Handler<T>): void {
    const method = methodOf(requestSchema);
    const anyParams = z.looseObject({ method: z.literal(method) });
    Protocol.prototype.setRequestHandler.call(this, anyParams, (request, extra) => {
      const parsed = safeParse(requestSchema, request);
      if (!parsed.success) {
        throw new JsonRpcWireError(
          ErrorCode.InvalidParams,
          `Invalid ${method} params: ${describeParamsError(parsed.error)}`,
        );
      }
      if (method !== 'initialize') return handler(parsed.data, extra);
      return (async () => {
        const result = (await handler(parsed.data, extra)) as Result;
        const transform = initializeTransforms.get(this);
        return transform ? transform(result, extra as RequestHandlerExtra<ServerRequest, ServerNotification>) : result;
      })();
    });
  }

  /**
   * Lets `transform` change the `initialize` result (the client's capabilities are known by then:
   * `getClientCapabilities()`). One transform per server; a later call replaces it.
   */
  transformInitializeResult(transform: InitializeResultTransform): void {
    initializeTransforms.set(this, transform);
  }
}

function methodOf(schema: AnyObjectSchema): string {
  const literal = getObjectShape(schema)?.method;
  const method = literal ? getLiteralValue(literal) : undefined;
  if (typeof method !== 'string') throw new Error('A request schema needs a string method literal');
  return method;
}

/** `protocolVersion: expected string; clientInfo: expected object`: paths below `params`, one line. */
function describeParamsError(error: unknown): string {
  const issues = isRecord(error) && Array.isArray(error.issues) ? (error.issues as unknown[]) : [];
  if (issues.length === 0) return 'they do not match the method';
  return formatIssues(
    issues.filter(isRecord).map((issue) => {
      const path = Array.isArray(issue.path) ? issue.path.map(String) : [];
      return {
        path: (path[0] === 'params' ? path.slice(1) : path).join('.') || 'params',
        message: typeof issue.message === 'string' ? issue.message : 'invalid',
      };
    }),
  );
}
