import {
  type JSONRPCRequest,
  type SpecTypeName,
  specTypeSchemas,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';
import { formatIssues, isRecord } from '@search-mcp/shared';
import { UpdateTaskRequestSchema } from './handled-requests.js';
import { JsonRpcWireError } from './wire-errors.js';

/** The spec's request schema of each method the aggregate answers. */
const requestTypes: Record<string, SpecTypeName> = {
  initialize: 'InitializeRequest',
  ping: 'PingRequest',
  'server/discover': 'DiscoverRequest',
  'tools/list': 'ListToolsRequest',
  'tools/call': 'CallToolRequest',
  'resources/list': 'ListResourcesRequest',
  'resources/templates/list': 'ListResourceTemplatesRequest',
  'resources/read': 'ReadResourceRequest',
  'resources/subscribe': 'SubscribeRequest',
  'resources/unsubscribe': 'UnsubscribeRequest',
  'prompts/list': 'ListPromptsRequest',
  'prompts/get': 'GetPromptRequest',
  'completion/complete': 'CompleteRequest',
  'logging/setLevel': 'SetLevelRequest',
  'tasks/get': 'GetTaskRequest',
  'tasks/result': 'GetTaskPayloadRequest',
  'tasks/cancel': 'CancelTaskRequest',
  'tasks/list': 'ListTasksRequest',
};
/** Request schemas of methods the spec's schemas do not cover. */
const extensionRequestSchemas: Record<string, StandardSchemaV1> = { 'tasks/update': UpdateTaskRequestSchema };

/**
 * Throws `-32602 Invalid params` with one readable line when `request` does not fit `method` (`own`: a schema of
 * ours for the whole request, where the aggregate accepts more than the spec or words its errors itself). The SDK
 * answers a zod dump, and for most methods as `-32603` (measured on 2.4.0; typescript-sdk#2284). Methods without a
 * schema pass.
 */
export function checkRequestParams(method: string, request: JSONRPCRequest, own: StandardSchemaV1 | undefined): void {
  const type = requestTypes[method];
  const schema =
    own ?? extensionRequestSchemas[method] ?? (type ? (specTypeSchemas[type] as StandardSchemaV1) : undefined);
  if (!schema) return;
  const outcome = schema['~standard'].validate(request);
  if (outcome instanceof Promise) return;
  if (outcome.issues) {
    throw new JsonRpcWireError(-32602, `Invalid ${method} params: ${describeIssues(outcome.issues)}`);
  }
}

/** `protocolVersion: expected string; clientInfo: expected object`: paths below `params`, one line. */
function describeIssues(issues: readonly StandardSchemaV1.Issue[]): string {
  if (issues.length === 0) return 'they do not match the method';
  return formatIssues(
    issues.map((issue) => {
      const path = (issue.path ?? []).map((segment) =>
        String(isRecord(segment) && 'key' in segment ? segment.key : segment),
      );
      return { path: (path[0] === 'params' ? path.slice(1) : path).join('.') || 'params', message: issue.message };
    }),
  );
}
