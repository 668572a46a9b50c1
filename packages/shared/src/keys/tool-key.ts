/**
 * Tool keys (docs/tool-names.md, "Keys and listed names"): `server:tool`. Input also accepts `server.tool` and
 * `server__tool`. Server ids contain none of `:` `.` `_`, so the first of them ends the server id; the tool name may
 * contain anything after it.
 */
import { isValidServerId } from './server-id.js';

export const TOOL_KEY_SEPARATOR = ':';

export interface ParsedToolKey {
  serverId: string;
  toolName: string;
}

export function formatToolKey(serverId: string, toolName: string): string {
  return `${serverId}${TOOL_KEY_SEPARATOR}${toolName}`;
}

/** Splits a tool key in any accepted form; undefined when it is not one (no exact server id, or no tool name). */
export function parseToolKey(input: string): ParsedToolKey | undefined {
  const separatorIndex = input.search(/[:._]/);
  if (separatorIndex <= 0) return undefined;

  let separatorLength = 1;
  if (input[separatorIndex] === '_') {
    // A single `_` is not a separator: only `__` is.
    if (input[separatorIndex + 1] !== '_') return undefined;
    separatorLength = 2;
  }

  const serverId = input.slice(0, separatorIndex);
  const toolName = input.slice(separatorIndex + separatorLength);
  if (!isValidServerId(serverId) || toolName === '') return undefined;
  return { serverId, toolName };
}
