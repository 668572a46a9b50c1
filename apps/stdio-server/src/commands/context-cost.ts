import { getTokenizer } from '@anthropic-ai/tokenizer';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { Caller } from '@search-mcp/catalog';
import type { SearchMcpRuntime } from '@search-mcp/runtime';
import { z } from 'zod';

export interface ContextCost {
  /** Claude tokens of the `tools/list` a client loads from search-mcp in meta mode. */
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

/** Counts Claude tokens of values' JSON with one tokenizer (building one costs about 50 ms); `free` releases it. */
export interface TokenCounter {
  count(value: unknown): number;
  free(): void;
}

/** Anthropic's tokenizer, built once, counting as its `countTokens` does (NFKC, special tokens allowed). */
export function createTokenCounter(): TokenCounter {
  const tokenizer = getTokenizer();
  return {
    count: (value) => tokenizer.encode(JSON.stringify(value).normalize('NFKC'), 'all').length,
    free: () => tokenizer.free(),
  };
}

const ToolsListSchema = z.looseObject({ tools: z.array(z.unknown()) });

/**
 * Measures what a client loads into the model's context before the first message: the `tools/list` answers as a
 * real MCP client receives them (over an in-memory link to a server built exactly as `serve` builds it), counted
 * with Anthropic's tokenizer on their JSON. An approximation of what a client sends the model, the same for all three.
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
  const tokens = createTokenCounter();
  try {
    let directTokens = 0;
    let directTools = 0;
    for (const tools of byServer.values()) {
      directTokens += tokens.count(tools);
      directTools += tools.length;
    }
    const metaTokens = tokens.count(meta);
    return {
      metaTokens,
      metaTools: meta.length,
      proxyTokens: tokens.count(proxy),
      proxyTools: proxy.length,
      directTokens,
      directTools,
      metaSavings: directTokens > 0 ? 1 - metaTokens / directTokens : 0,
    };
  } finally {
    tokens.free();
  }
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
