import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { Caller } from '@search-mcp/catalog';
import type { SearchMcpRuntime } from '@search-mcp/runtime';
import { z } from 'zod';
import { estimateTokens } from './token-estimate.js';

export interface ContextCost {
  /** Claude tokens (estimated: `token-estimate.ts`) of the `tools/list` a client loads from search-mcp in meta mode. */
  metaTokens: number;
  metaTools: number;
  /** The same in proxy mode (every tool, under `server__tool`). */
  proxyTokens: number;
  proxyTools: number;
  /** The sum over the connected servers of their own `tools/list`, as a client connected to each would load. */
  directTokens: number;
  directTools: number;
  /** 1 − meta / direct. */
  metaSavings: number;
}

/** Estimated Claude tokens of a value's JSON (`token-estimate.ts`: within a few percent of Anthropic's tokenizer). */
function tokensOf(value: unknown): number {
  return estimateTokens(JSON.stringify(value));
}

const ToolsListSchema = z.looseObject({ tools: z.array(z.unknown()) });

/**
 * Measures what a client loads into the model's context before the first message: the `tools/list` answers as a
 * real MCP client receives them (over an in-memory link to a server built exactly as `serve` builds it), counted
 * as estimated Claude tokens of their JSON. An approximation of what a client sends the model, the same for all three.
 */
export async function measureContextCost(runtime: SearchMcpRuntime, caller: Caller = {}): Promise<ContextCost> {
  const meta = await listThrough(runtime, 'meta', caller);
  const proxy = await listThrough(runtime, 'proxy', caller);
  const byServer = new Map<string, unknown[]>();
  for (const tool of await runtime.catalog.visibleTools(caller)) {
    const list = byServer.get(tool.serverName) ?? [];
    list.push(tool.definition ?? { name: tool.toolName, description: tool.description, inputSchema: tool.inputSchema });
    byServer.set(tool.serverName, list);
  }
  let directTokens = 0;
  let directTools = 0;
  for (const tools of byServer.values()) {
    directTokens += tokensOf(tools);
    directTools += tools.length;
  }
  const metaTokens = tokensOf(meta);
  return {
    metaTokens,
    metaTools: meta.length,
    proxyTokens: tokensOf(proxy),
    proxyTools: proxy.length,
    directTokens,
    directTools,
    metaSavings: directTokens > 0 ? 1 - metaTokens / directTokens : 0,
  };
}

async function listThrough(runtime: SearchMcpRuntime, mode: 'meta' | 'proxy', caller: Caller): Promise<unknown[]> {
  const server = runtime.createServer({
    mode,
    ...(caller.projectId !== undefined ? { projectId: caller.projectId } : {}),
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  // The 2025 handshake, named rather than left to the SDK's default: the measurement stays the same if it changes.
  const client = new Client(
    { name: 'search-mcp-context-cost', version: '1' },
    { versionNegotiation: { mode: 'legacy' } },
  );
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  try {
    const { tools } = await client.request({ method: 'tools/list', params: {} }, ToolsListSchema);
    return tools;
  } finally {
    await client.close();
    await server.close();
  }
}
