import type { Caller } from '@search-mcp/catalog';
import {
  checkParamHeaders,
  type HeaderScan,
  isRecord,
  JsonRpcErrorCode,
  type ParamHeaderMismatch,
  scanHeaderDeclarations,
} from '@search-mcp/shared';

/** Where the request's headers are read (a web `Headers`, or Fastify's through a getter): by lower-case name. */
export interface HeaderSource {
  get(name: string): string | null | undefined;
}

/** A server instance that knows which tool a caller was listed under a name (the runtime's instances do). */
export interface ListedToolSource {
  listedTool(caller: Caller, name: string): Promise<{ inputSchema?: unknown } | undefined>;
}

/**
 * SEP-2243 on the 2026-07-28 leg: a `tools/call` of a tool whose listed `inputSchema` marks arguments with
 * `x-mcp-header` must carry them as `Mcp-Param-*` headers that agree with the body (gateways in front may have
 * routed on them, and the body is what runs). The SDK checks this only for tools registered on its `McpServer`; Search
 * MCP's tools are its backends', listed per caller, so the check is made here, against the tool as `server` lists it
 * to `caller`. Returns the first disagreement; `undefined` when the call is no `tools/call` of such a tool, or when
 * the tool cannot be looked up (a refused caller: the call itself answers with that error).
 */
export async function paramHeaderMismatch(
  server: unknown,
  caller: Caller,
  body: unknown,
  headers: HeaderSource,
): Promise<ParamHeaderMismatch | undefined> {
  if (!isRecord(body) || body.method !== 'tools/call' || !isRecord(body.params)) return undefined;
  const { name, arguments: args } = body.params;
  if (typeof name !== 'string' || !listsTools(server)) return undefined;
  let tool: { inputSchema?: unknown } | undefined;
  try {
    tool = await server.listedTool(caller, name);
  } catch {
    return undefined;
  }
  if (tool === undefined) return undefined;
  const scan = headerScanOf(tool.inputSchema);
  // A tool whose marks break the rules is left out by conforming clients: there is nothing they were asked to send.
  if (!scan.valid || scan.declarations.length === 0) return undefined;
  return checkParamHeaders(scan.declarations, args, (header) => headers.get(header));
}

/** The JSON-RPC error a disagreement is answered with (HTTP 400), naming the header concerned. */
export function headerMismatchError(mismatch: ParamHeaderMismatch): {
  code: number;
  message: string;
  data: { mismatch: { header: string; body: string } };
} {
  return {
    code: JsonRpcErrorCode.HeaderMismatch,
    message: `Bad Request: the request headers and body disagree: ${mismatch.reason}`,
    data: { mismatch: { header: mismatch.header, body: mismatch.reason } },
  };
}

/**
 * Each listed schema's scan, kept while the schema is: every 2026-07-28 `tools/call` is checked, and the listed tool's
 * `inputSchema` is the same object from one listing of its backend to the next, so the walk is made once per listing,
 * not once per call.
 */
const headerScans = new WeakMap<object, HeaderScan>();

function headerScanOf(inputSchema: unknown): HeaderScan {
  if (!isRecord(inputSchema)) return scanHeaderDeclarations(inputSchema);
  let scan = headerScans.get(inputSchema);
  if (scan === undefined) {
    scan = scanHeaderDeclarations(inputSchema);
    headerScans.set(inputSchema, scan);
  }
  return scan;
}

function listsTools(server: unknown): server is ListedToolSource {
  return isRecord(server) && typeof server.listedTool === 'function';
}
