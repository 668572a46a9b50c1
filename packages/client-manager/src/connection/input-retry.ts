import {
  formatIssues,
  hasInputRetry,
  type InputRetry,
  type Issue,
  inputRequiredMethods,
  isRecord,
  ValidationError,
} from '@search-mcp/shared';
import type { BackendPeer } from './backend-peer.js';

/**
 * Whether this request may come back `input_required` (a multi-round-trip request): only `tools/call`,
 * `prompts/get` and `resources/read`, and only from a 2026-07-28 backend. Such a result is handed to the caller as
 * it is, to fulfil and retry (`docs/design/protocol-eras.md` §4: the front side decides who answers, nothing is
 * auto-fulfilled here).
 */
export function mayAskForInput(client: BackendPeer, method: string): boolean {
  return client.protocolEra === 'modern' && inputRequiredMethods.includes(method);
}

/**
 * The params a retry after `input_required` adds (spec: the same method and params plus `inputResponses` and the
 * echoed `requestState`), or undefined for a first request. Never dropped silently: a 2025 backend, a method
 * without multi-round trips, or fields of the wrong type are a `ValidationError` before anything is sent.
 */
export function inputRetryParams(
  client: BackendPeer,
  serverId: string,
  method: string,
  options: InputRetry,
): Record<string, unknown> | undefined {
  if (!hasInputRetry(options)) return undefined;
  const { inputResponses, requestState } = options;
  const issues: Issue[] = [];
  if (inputResponses !== undefined && !isRecord(inputResponses)) {
    issues.push({ path: 'inputResponses', message: 'must be an object keyed like the inputRequests it answers' });
  }
  if (requestState !== undefined && typeof requestState !== 'string') {
    issues.push({ path: 'requestState', message: 'must be the string the backend sent, unchanged' });
  }
  if (issues.length > 0) {
    throw new ValidationError({
      issues,
      message: `Invalid retry of ${method} on MCP server '${serverId}': ${formatIssues(issues)}`,
    });
  }
  if (!mayAskForInput(client, method)) {
    const fields = [
      inputResponses !== undefined ? 'inputResponses' : '',
      requestState !== undefined ? 'requestState' : '',
    ]
      .filter(Boolean)
      .join(' and ');
    const message =
      client.protocolEra === 'modern'
        ? `MCP server '${serverId}': ${method} takes no ${fields} (only ${inputRequiredMethods.join(', ')} are multi-round-trip requests)`
        : `MCP server '${serverId}' speaks MCP ${client.protocolVersion ?? '2025'}, which has no multi-round-trip requests: ${fields} are for 2026-07-28 backends only (a 2025 backend asks for input with requests while the call runs)`;
    throw new ValidationError({ issues: [{ path: fields.split(' ')[0] ?? '', message }], message });
  }
  return {
    ...(inputResponses !== undefined ? { inputResponses } : {}),
    ...(requestState !== undefined ? { requestState } : {}),
  };
}
